package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Informers recovering from what only real processes do: kube-apiserver restarted under a watch,
 * and a resourceVersion expired by an etcd compaction. Each test has its own API server, since it
 * hurts it.
 */
class InformerRecoveryIT {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String LABEL = "app=informer-it";
    private static final String NAMESPACE = "recovery";

    private LocalApiServer server;
    private KubernetesClient client;

    private ResourceClient<ConfigMap> start(LocalApiServerOptions options) {
        server = LocalApiServer.start(options);
        client = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(), null));
        client.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
                .build());
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(NAMESPACE);
        IntStream.range(0, 30).forEach(i -> configMaps.create(InformerIT.configMap("cm-" + i, "v0")));
        return configMaps;
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /**
     * Stands between the reflector and the server: while closed, new watches fail as if the
     * server could not be reached; {@link #begin()} also ends the open watches. Counts lists,
     * paginated or streaming.
     */
    static final class Outage implements ListerWatcher<ConfigMap> {
        final ListerWatcher<ConfigMap> delegate;
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicInteger lists = new AtomicInteger();
        final AtomicInteger watches = new AtomicInteger();
        volatile Sinks.Empty<Void> cut = Sinks.empty();

        Outage(ListerWatcher<ConfigMap> delegate) {
            this.delegate = delegate;
        }

        @Override
        public ResourceList<ConfigMap> list(ListOptions options) {
            if (down.get()) {
                throw new KubernetesClientException("connection refused (outage)");
            }
            lists.incrementAndGet();
            return delegate.list(options);
        }

        @Override
        public Flux<WatchEvent<ConfigMap>> watch(ListOptions options) {
            return Flux.defer(() -> {
                if (down.get()) {
                    return Flux.error(new KubernetesClientException("connection refused (outage)"));
                }
                watches.incrementAndGet();
                if (Boolean.TRUE.equals(options.sendInitialEvents())) {
                    lists.incrementAndGet(); // a streaming list
                }
                return delegate.watch(options).takeUntilOther(cut.asMono());
            });
        }

        void begin() {
            down.set(true);
            Sinks.Empty<Void> current = cut;
            cut = Sinks.empty();
            current.tryEmitEmpty();
        }

        void end() {
            down.set(false);
        }
    }

    /** Records deletions and adds per key. */
    static final class Deletions extends InformerIT.History {
        final Map<String, Boolean> tombstones = new ConcurrentHashMap<>();
        final Set<String> laterAdds = ConcurrentHashMap.newKeySet();

        @Override
        public void onAdd(ConfigMap object, boolean isInInitialList) {
            super.onAdd(object, isInInitialList);
            if (!isInInitialList) {
                laterAdds.add(object.getMetadata().getName());
            }
        }

        @Override
        public void onDelete(ConfigMap object, boolean finalStateUnknown) {
            super.onDelete(object, finalStateUnknown);
            tombstones.put(object.getMetadata().getName(), finalStateUnknown);
        }
    }

    private static ReflectorOptions.Builder fastBackoff() {
        return ReflectorOptions.builder().initialBackoff(Duration.ofMillis(100)).maxBackoff(Duration.ofSeconds(1));
    }

    /** Deletes cm-0..9, updates cm-10..19, creates new-0..9. */
    private static void changeWhileDown(ResourceClient<ConfigMap> configMaps) {
        // The test's own client first: its pooled connections went with the old server process, and a
        // request on one may fail once ("Error while acquiring from ... pool") before a fresh one is made.
        await().atMost(WAIT).ignoreExceptions().until(() -> configMaps.get("cm-0") != null);
        for (int i = 0; i < 10; i++) {
            configMaps.delete("cm-" + i);
            ConfigMap changed = configMaps.get("cm-" + (10 + i));
            changed.getData().put("value", "v1");
            configMaps.update(changed);
            configMaps.create(InformerIT.configMap("new-" + i, "v1"));
        }
    }

    private static void assertCaughtUp(SharedIndexInformer<ConfigMap> informer, ResourceClient<ConfigMap> configMaps,
            Deletions handler) {
        Map<String, String> expected = configMaps.list(ListOptions.builder().labelSelector(LABEL).build()).items()
                .stream().collect(Collectors.toMap(Keys::of, c -> c.getMetadata().getResourceVersion()));
        List<String> deleted = IntStream.range(0, 10).mapToObj(i -> "cm-" + i).toList();
        List<String> added = IntStream.range(0, 10).mapToObj(i -> "new-" + i).toList();
        await().atMost(WAIT).until(() -> InformerIT.cacheState(informer).equals(expected));
        // the handler notes an event in one map after another: an add's later add and a deletion's tombstone last
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(handler.present.keySet()).isEqualTo(expected.keySet());
            assertThat(handler.tombstones.keySet()).containsAll(deleted);
            assertThat(handler.laterAdds).containsAll(added);
        });
        assertThat(handler.duplicates).as("no object delivered twice as an add").isEmpty();
        assertThat(handler.deletes).as("each deleted object deleted once")
                .isEqualTo(IntStream.range(0, 10).boxed().collect(Collectors.toMap(i -> NAMESPACE + "/cm-" + i, i -> 1)));
        assertThat(handler.laterAdds).containsExactlyInAnyOrderElementsOf(added);
    }

    @Test
    void afterAnApiServerRestartTheInformerReconnectsAndDeletionsMadeMeanwhileArriveAsTombstones() throws Exception {
        ResourceClient<ConfigMap> configMaps = start(LocalApiServerOptions.defaults());
        Outage outage = new Outage(ListerWatcher.of(configMaps, LABEL, null));
        List<ReflectorException> errors = new CopyOnWriteArrayList<>();
        try (SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps", outage, ConfigMap.class,
                InformerOptions.builder().reflector(fastBackoff().errorHandler(errors::add).build()).build())) {
            Deletions handler = new Deletions();
            informer.addEventHandler(handler);
            informer.start();
            await().atMost(WAIT).until(() -> informer.hasSynced() && informer.isWatching());

            outage.begin();
            server.restartApiServer();
            changeWhileDown(configMaps);
            await().atMost(WAIT).until(() -> !errors.isEmpty());
            outage.end();

            assertCaughtUp(informer, configMaps, handler);
            // The restarted server's watch cache starts after the old resourceVersion: the watch
            // gets 410 and the informer relists, so the deletions are inferred.
            assertThat(handler.tombstones).containsOnlyKeys(IntStream.range(0, 10).mapToObj(i -> "cm-" + i).toList());
            assertThat(handler.tombstones.values()).as("final states unknown").containsOnly(true);
            await().atMost(WAIT).until(informer::isWatching);
        }
    }

    @Test
    void aResourceVersionExpiredByCompactionLeadsToOneRelistNotALoop() throws Exception {
        ResourceClient<ConfigMap> configMaps = start(LocalApiServerOptions.builder()
                .apiServerArg("--watch-cache=false").build());
        Outage outage = new Outage(ListerWatcher.of(configMaps, LABEL, null));
        List<ReflectorException> errors = new CopyOnWriteArrayList<>();
        try (SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps", outage, ConfigMap.class,
                InformerOptions.builder().reflector(fastBackoff().errorHandler(errors::add).build()).build())) {
            Deletions handler = new Deletions();
            informer.addEventHandler(handler);
            informer.start();
            await().atMost(WAIT).until(() -> informer.hasSynced() && informer.isWatching());
            int listsBefore = outage.lists.get();
            String versionBefore = informer.lastSyncResourceVersion();

            outage.begin();
            changeWhileDown(configMaps);
            server.compactEtcd();
            errors.clear();
            outage.end();

            assertCaughtUp(informer, configMaps, handler);
            await().atMost(WAIT).until(informer::isWatching);
            assertThat(errors).as("the watch from " + versionBefore + " was answered 410")
                    .anySatisfy(error -> assertThat(ApiErrors.isGone(error)).as(error.toString()).isTrue());
            assertThat(outage.lists.get() - listsBefore).as("relists").isEqualTo(1);
            assertThat(handler.tombstones).containsOnlyKeys(IntStream.range(0, 10).mapToObj(i -> "cm-" + i).toList());
            assertThat(handler.tombstones.values()).as("final states unknown").containsOnly(true);
            assertThat(Long.parseLong(informer.lastSyncResourceVersion())).isGreaterThan(Long.parseLong(versionBefore));
        }
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

/** Informers against the real API server. */
@KubernetesTest(crds = "crds/gadgets.yaml")
@ExtendWith(AdminClientExtension.class)
class InformerIT {

    private static final Duration SYNC = Duration.ofSeconds(120);
    /** Every ConfigMap these tests make has it (namespaces also hold the root CA's ConfigMap). */
    private static final String LABEL = "app=informer-it";
    private static KubernetesClient client;

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    static ConfigMap configMap(String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("app", "informer-it").endMetadata()
                .addToData("value", value).build();
    }

    /** Runs {@code task(i)} for i in [0, count) on {@code threads} threads and waits for all. */
    static void parallel(int count, int threads, java.util.function.IntConsumer task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(pool.submit(() -> task.accept(index)));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Key → resourceVersion of what the server holds now. */
    static Map<String, String> serverState(ResourceClient<ConfigMap> configMaps) {
        return configMaps.list(ListOptions.builder().labelSelector(LABEL).build()).items().stream()
                .collect(Collectors.toMap(Keys::of, c -> c.getMetadata().getResourceVersion()));
    }

    static Map<String, String> cacheState(SharedIndexInformer<ConfigMap> informer) {
        return informer.indexer().list().stream()
                .collect(Collectors.toMap(Keys::of, c -> c.getMetadata().getResourceVersion()));
    }

    /** Counts list and watch requests, to see which path a reflector took. */
    static final class Counting implements ListerWatcher<ConfigMap> {
        final ListerWatcher<ConfigMap> delegate;
        final AtomicInteger lists = new AtomicInteger();
        final List<ListOptions> watches = new CopyOnWriteArrayList<>();

        Counting(ListerWatcher<ConfigMap> delegate) {
            this.delegate = delegate;
        }

        @Override
        public ResourceList<ConfigMap> list(ListOptions options) {
            lists.incrementAndGet();
            return delegate.list(options);
        }

        @Override
        public Flux<WatchEvent<ConfigMap>> watch(ListOptions options) {
            watches.add(options);
            return delegate.watch(options);
        }
    }

    /** Tracks, per key, what a handler heard, and flags an add without a delete in between. */
    static class History implements ResourceEventHandler<ConfigMap> {
        final Map<String, Boolean> present = new ConcurrentHashMap<>();
        final List<String> duplicates = new CopyOnWriteArrayList<>();
        final Map<String, Integer> deletes = new ConcurrentHashMap<>();
        final AtomicInteger events = new AtomicInteger();

        @Override
        public void onAdd(ConfigMap object, boolean isInInitialList) {
            if (Boolean.TRUE.equals(present.put(Keys.of(object), true))) {
                duplicates.add(Keys.of(object));
            }
            events.incrementAndGet();
        }

        @Override
        public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            events.incrementAndGet();
        }

        @Override
        public void onDelete(ConfigMap object, boolean finalStateUnknown) {
            present.remove(Keys.of(object));
            deletes.merge(Keys.of(object), 1, Integer::sum);
            events.incrementAndGet();
        }
    }

    @Test
    void twoThousandObjectsSyncByStreamingAndByPagesAndTheCacheMatchesTheServerAfterConcurrentChurn(
            TestNamespace namespace) throws Exception {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        parallel(2000, 8, i -> configMaps.create(configMap("cm-" + i, "v0")));

        Counting streaming = new Counting(ListerWatcher.of(configMaps, LABEL, null));
        Counting paged = new Counting(ListerWatcher.of(configMaps, LABEL, null));
        try (SharedIndexInformer<ConfigMap> streamed = SharedIndexInformer.create("configmaps-streamed", streaming,
                ConfigMap.class, InformerOptions.defaults());
                SharedIndexInformer<ConfigMap> listed = SharedIndexInformer.create("configmaps-listed", paged,
                        ConfigMap.class, InformerOptions.builder()
                                .reflector(ReflectorOptions.builder().streamingList(false).build()).build())) {
            History history = new History();
            HandlerRegistration registration = listed.addEventHandler(history);
            streamed.start();
            listed.start();
            await().atMost(SYNC).until(() -> streamed.hasSynced() && listed.hasSynced() && registration.hasSynced());

            assertThat(streamed.indexer().size()).isEqualTo(2000);
            assertThat(listed.indexer().size()).isEqualTo(2000);
            assertThat(streaming.lists).as("the streaming list needs no list request").hasValue(0);
            assertThat(streaming.watches.get(0).sendInitialEvents()).isTrue();
            // 2,000 objects in pages of 500; the server may end with an empty page, as it filters
            // by label after reading each chunk.
            assertThat(paged.lists.get()).as("list requests").isBetween(4, 5);

            // Churn from 4 threads on disjoint objects: creates, updates and deletes.
            parallel(4, 4, worker -> {
                for (int i = 0; i < 100; i++) {
                    int n = worker * 500 + i;
                    configMaps.create(configMap("new-" + worker + "-" + i, "v1"));
                    ConfigMap existing = configMaps.get("cm-" + n);
                    existing.getData().put("value", "v2");
                    configMaps.update(existing);
                    configMaps.delete("cm-" + (n + 250));
                }
            });
            Map<String, String> expected = serverState(configMaps);
            assertThat(expected).hasSize(2000);
            await().atMost(SYNC).until(() -> cacheState(streamed).equals(expected) && cacheState(listed).equals(expected));
            await().atMost(SYNC).until(() -> history.events.get() == 2000 + 400 + 400 + 400);
            assertThat(history.duplicates).as("no object was added twice").isEmpty();
            assertThat(history.present.keySet()).isEqualTo(expected.keySet());
            assertThat(streamed.isWatching()).isTrue();
            assertThat(Long.parseLong(streamed.lastSyncResourceVersion())).isPositive();
        }
    }

    @Test
    void theFactorySharesOneInformerPerScopeAndWatchesOneTypeInTwoNamespacesSeparately(TestNamespace first)
            throws Exception {
        TestNamespace second = new TestNamespace(first.name() + "-b");
        client.coreV1().namespaces().create(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName(second.name()).endMetadata().build());
        client.coreV1().configMaps().inNamespace(first.name()).create(configMap("in-first", "1"));
        client.coreV1().configMaps().inNamespace(second.name()).create(configMap("in-second", "2"));
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> a = factory.informerFor(ConfigMap.class, InformerScope.namespace(first.name()));
            SharedIndexInformer<ConfigMap> b = factory.informerFor(ConfigMap.class, InformerScope.namespace(second.name()));
            SharedIndexInformer<ConfigMap> labelled = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(first.name()).withLabelSelector("app = informer-it"));
            assertThat(factory.informerFor(ConfigMap.class, InformerScope.namespace(first.name()))).isSameAs(a);
            assertThat(factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(first.name()).withLabelSelector("app==informer-it"))).isSameAs(labelled);
            factory.start();
            factory.waitForCacheSync(SYNC);

            assertThat(a.lister().namespace(first.name()).get("in-first")).isPresent();
            assertThat(a.lister().list()).extracting(c -> c.getMetadata().getNamespace()).containsOnly(first.name());
            assertThat(b.lister().list()).extracting(c -> c.getMetadata().getName()).contains("in-second")
                    .doesNotContain("in-first");
            assertThat(labelled.lister().list()).extracting(c -> c.getMetadata().getName()).containsExactly("in-first");
            assertThat(a.name()).isEqualTo("configmaps/" + first.name());
            assertThat(labelled.name()).isEqualTo("configmaps/" + first.name() + " [app=informer-it]");
        } finally {
            client.coreV1().namespaces().delete(second.name());
        }
    }

    @Test
    void aDynamicInformerCachesCustomResourcesWithoutAJavaClass(TestNamespace namespace) throws Exception {
        GroupVersionResource gadgets = new GroupVersionResource("runtime.operatorstarter.dev", "v1", "gadgets");
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<GenericKubernetesResource> informer = factory.informerFor(gadgets,
                    InformerScope.namespace(namespace.name()));
            List<String> added = new CopyOnWriteArrayList<>();
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(GenericKubernetesResource object, boolean isInInitialList) {
                    added.add(object.getMetadata().getName());
                }
            });
            factory.start();
            factory.waitForCacheSync(SYNC);
            client.dynamic(gadgets).inNamespace(namespace.name()).create(new GenericKubernetesResourceBuilder()
                    .withApiVersion("runtime.operatorstarter.dev/v1").withKind("Gadget").withNewMetadata()
                    .withName("widget").endMetadata().addToAdditionalProperties("spec", Map.of("size", 3)).build());
            await().atMost(SYNC).until(() -> added.contains("widget"));
            assertThat(informer.lister().namespace(namespace.name()).get("widget")).get()
                    .satisfies(g -> assertThat(g.getAdditionalProperties().get("spec")).isEqualTo(Map.of("size", 3)));
            assertThat(informer.name()).isEqualTo("gadgets.runtime.operatorstarter.dev/" + namespace.name());
        }
    }

    @Test
    void aBlockedHandlerDoesNotDelayAnotherAndALateHandlerGetsTheReplay(TestNamespace namespace) throws Exception {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(configMap("first", "1"));
        CountDownLatch release = new CountDownLatch(1);
        List<String> slow = new CopyOnWriteArrayList<>();
        List<String> fast = new CopyOnWriteArrayList<>();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> informer = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(namespace.name()).withLabelSelector(LABEL));
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ConfigMap object, boolean isInInitialList) {
                    slow.add(object.getMetadata().getName());
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ConfigMap object, boolean isInInitialList) {
                    fast.add(object.getMetadata().getName());
                }
            });
            factory.start();
            factory.waitForCacheSync(SYNC);
            configMaps.create(configMap("second", "2"));
            await().atMost(SYNC).until(() -> fast.contains("second"));
            assertThat(slow).containsExactly("first");

            List<String> late = new CopyOnWriteArrayList<>();
            HandlerRegistration registration = informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ConfigMap object, boolean isInInitialList) {
                    late.add(object.getMetadata().getName() + (isInInitialList ? " (replay)" : ""));
                }
            });
            await().atMost(SYNC).until(registration::hasSynced);
            assertThat(late).containsExactlyInAnyOrder("first (replay)", "second (replay)");
            release.countDown();
            await().atMost(SYNC).until(() -> slow.size() == 2);
        }
    }

    /** The example of docs/informers/usage.md, as it is printed there. */
    @Test
    void theGuidesExample(TestNamespace testNamespace) throws Exception {
        String namespace = testNamespace.name();
        client.coreV1().configMaps().inNamespace(namespace).create(new ConfigMapBuilder().withNewMetadata()
                .withName("front").addToLabels("app", "web").endMetadata().build());
        java.util.concurrent.BlockingQueue<String> queue = new java.util.concurrent.LinkedBlockingQueue<>();
        List<ConfigMap> web;

        // --- begin example (docs/informers/usage.md)
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(namespace));
            configMaps.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(ConfigMap object, boolean isInInitialList) {
                    queue.add(Keys.of(object));
                }

                @Override
                public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
                    queue.add(Keys.of(newObject));
                }

                @Override
                public void onDelete(ConfigMap object, boolean finalStateUnknown) {
                    queue.add(Keys.of(object));
                }
            });
            factory.start();
            factory.waitForCacheSync(Duration.ofMinutes(1));

            Lister<ConfigMap> lister = configMaps.lister();
            web = lister.namespace(namespace).list(LabelSelector.parse("app=web"));
        }
        // --- end example

        assertThat(web).extracting(c -> c.getMetadata().getName()).containsExactly("front");
        // the cache syncs before each handler's own thread has been told of every object
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(queue).contains(namespace + "/front"));
    }

    @Test
    void withoutPermissionToListTheSyncFailsNamingTheVerbTheResourceAndTheIdentity(ClusterConnection connection,
            TestNamespace namespace, @org.junit.jupiter.api.io.TempDir java.nio.file.Path folder) throws Exception {
        // A service account with no role at all, and a real token for it.
        java.nio.file.Path kubeconfig = ServiceAccounts.connectAs(connection, namespace.name(), "nobody",
                Duration.ofHours(1), folder.resolve("kubeconfig")).kubeconfig();
        try (KubernetesClient restricted = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
                SharedInformerFactory factory = new SharedInformerFactory(restricted, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> informer = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(namespace.name()));
            factory.start();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> factory.waitForCacheSync(Duration.ofSeconds(5)))
                    .isInstanceOf(InformerSyncException.class)
                    .hasMessageContaining("configmaps/" + namespace.name())
                    .hasMessageContaining("403")
                    .hasMessageContaining("system:serviceaccount:" + namespace.name() + ":nobody")
                    // a streaming list is a watch: the server names the verb it refused
                    .hasMessageMatching("(?s).*cannot (list|watch) resource \"configmaps\" in API group \"\".*")
                    // and the typed cause says the same, from the API's Status
                    .satisfies(thrown -> assertThat(((InformerSyncException) thrown).denials()).singleElement()
                            .satisfies(denial -> {
                                assertThat(denial.identity()).isEqualTo("system:serviceaccount:" + namespace.name() + ":nobody");
                                assertThat(denial.verb()).isIn("list", "watch");
                                assertThat(denial.resource()).isEqualTo("configmaps");
                                assertThat(denial.group()).isEmpty();
                                assertThat(denial.namespace()).isEqualTo(namespace.name());
                            }));
            assertThat(informer.hasSynced()).isFalse();
            assertThat(informer.indexer().size()).isZero();
        }
    }
}

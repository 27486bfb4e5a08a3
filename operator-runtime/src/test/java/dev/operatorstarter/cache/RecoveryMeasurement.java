package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How soon informers with the default options come back after kube-apiserver restarts: the time
 * from the first write the restarted server accepted to that write's event in each informer's
 * cache, over several restarts, with the watch cache off and on. Not part of the build (the name
 * ends in neither Test nor IT); run it with
 * <pre>mvn -B -o -pl operator-runtime -am test -Dtest=RecoveryMeasurement -Dsurefire.failIfNoSpecifiedTests=false -Drecovery.restarts=5</pre>
 * The informers run as a service account (so they meet the restarted server's authorizer as an
 * operator in a pod does); a writer, as admin, creates a ConfigMap every 50 ms throughout.
 * The default build checks one restart with the watch cache off in the benchmarks module's
 * {@code InformerChaosIT}.
 */
class RecoveryMeasurement {

    private static final Logger log = LoggerFactory.getLogger(RecoveryMeasurement.class);
    static final String NAMESPACE = "recovery";
    static final String LABEL = "app=informer-it";
    private static final Duration WAIT = Duration.ofSeconds(120);

    @Test
    void measure() throws Exception {
        int restarts = Integer.getInteger("recovery.restarts", 5);
        int informers = Integer.getInteger("recovery.informers", 5);
        List<String> lines = new ArrayList<>();
        for (boolean watchCache : List.of(false, true)) {
            LocalApiServerOptions.Builder options = LocalApiServerOptions.builder();
            if (!watchCache) {
                options.apiServerArg("--watch-cache=false");
            }
            Path folder = Files.createTempDirectory("recovery-measurement");
            try (LocalApiServer server = LocalApiServer.start(options.build());
                    Setup setup = Setup.start(server, folder, informers)) {
                List<Long> millis = new ArrayList<>();
                List<Integer> relists = new ArrayList<>();
                for (int i = 0; i < restarts; i++) {
                    Restart restart = Restart.run(server, setup);
                    millis.addAll(restart.delays().stream().map(Duration::toMillis).toList());
                    relists.add(restart.relists());
                    log.info("watch cache {}: restart {}: delays {} ms, relists {}, errors {}", watchCache ? "on" : "off",
                            i + 1, restart.delays().stream().map(Duration::toMillis).toList(), restart.relists(),
                            restart.errors());
                }
                millis.sort(Comparator.naturalOrder());
                lines.add(String.format(Locale.ROOT, "| %s | %d x %d | %d | %d | %d | %d |", watchCache ? "on" : "off",
                        restarts, informers, millis.get(0), millis.get(millis.size() / 2), millis.get(millis.size() - 1),
                        relists.stream().mapToInt(Integer::intValue).sum()));
            }
        }
        System.out.println();
        System.out.println("| watch cache | restarts x informers | min ms | median ms | max ms | relists |");
        System.out.println("|---|---|---|---|---|---|");
        lines.forEach(System.out::println);
    }

    /** Informers connected as a service account with a role to list and watch ConfigMaps, and a writer. */
    static final class Setup implements AutoCloseable {
        final KubernetesClient admin;
        final KubernetesClient restricted;
        final ResourceClient<ConfigMap> configMaps;
        final List<Probe> probes = new ArrayList<>();
        final Writer writer;

        private Setup(KubernetesClient admin, KubernetesClient restricted, ResourceClient<ConfigMap> configMaps) {
            this.admin = admin;
            this.restricted = restricted;
            this.configMaps = configMaps;
            this.writer = new Writer(configMaps);
        }

        static Setup start(LocalApiServer server, Path folder, int informers) {
            KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(), null));
            admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata()
                    .build());
            admin.rbacV1().roles().inNamespace(NAMESPACE).create(new RoleBuilder().withNewMetadata()
                    .withName("configmap-reader").endMetadata().addNewRule().withApiGroups("")
                    .withResources("configmaps").withVerbs("get", "list", "watch").endRule().build());
            admin.rbacV1().roleBindings().inNamespace(NAMESPACE).create(new RoleBindingBuilder().withNewMetadata()
                    .withName("operator-reads-configmaps").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                    .withKind("Role").withName("configmap-reader").endRoleRef().addNewSubject().withKind("ServiceAccount")
                    .withName("operator").withNamespace(NAMESPACE).endSubject().build());
            Path kubeconfig = ServiceAccounts.connectAs(server.connection(), NAMESPACE, "operator", Duration.ofHours(1),
                    folder.resolve("kubeconfig")).kubeconfig();
            KubernetesClient restricted = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
            Setup setup = new Setup(admin, restricted, admin.coreV1().configMaps().inNamespace(NAMESPACE));
            ResourceClient<ConfigMap> readable = restricted.coreV1().configMaps().inNamespace(NAMESPACE);
            for (int i = 0; i < informers; i++) {
                setup.probes.add(new Probe("configmaps-" + i, readable, InformerOptions.defaults()));
            }
            await().atMost(WAIT).until(() -> setup.probes.stream().allMatch(p -> p.informer.hasSynced()
                    && p.informer.isWatching()));
            setup.writer.start();
            return setup;
        }

        @Override
        public void close() {
            writer.close();
            probes.forEach(probe -> probe.informer.stop());
            restricted.close();
            admin.close();
        }
    }

    /** One informer under measurement: counts its lists, records when each object first reached its handler. */
    static final class Probe implements ResourceEventHandler<ConfigMap> {
        final Map<String, Long> arrivals = new ConcurrentHashMap<>();
        final InformerIT.Counting lister;
        final SharedIndexInformer<ConfigMap> informer;
        final List<String> errors = new CopyOnWriteArrayList<>();
        final List<Long> forbiddenAt = new CopyOnWriteArrayList<>();

        Probe(String name, ResourceClient<ConfigMap> configMaps, InformerOptions options) {
            this.lister = new InformerIT.Counting(ListerWatcher.of(configMaps, LABEL, null));
            this.informer = SharedIndexInformer.create(name, lister, ConfigMap.class, options.toBuilder()
                    .reflector(options.reflector().toBuilder().errorHandler(error -> {
                        errors.add(error.getMessage());
                        if (error.getMessage().contains("403")) {
                            forbiddenAt.add(System.nanoTime());
                        }
                    })
                            .build()).build());
            informer.addEventHandler(this);
            informer.start();
        }

        /** Lists, paginated or streaming. */
        int lists() {
            return lister.lists.get() + (int) lister.watches.stream()
                    .filter(options -> Boolean.TRUE.equals(options.sendInitialEvents())).count();
        }

        @Override
        public void onAdd(ConfigMap object, boolean isInInitialList) {
            arrivals.putIfAbsent(object.getMetadata().getName(), System.nanoTime());
        }

        @Override
        public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            arrivals.putIfAbsent(newObject.getMetadata().getName(), System.nanoTime());
        }
    }

    /** Creates a ConfigMap every 50 ms, recording each attempt. */
    static final class Writer implements AutoCloseable {
        record Attempt(String name, long endedNanos, boolean accepted) {
        }

        private final ResourceClient<ConfigMap> configMaps;
        private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "recovery-writer");
            thread.setDaemon(true);
            return thread;
        });
        private final AtomicInteger counter = new AtomicInteger();
        final List<Attempt> attempts = new CopyOnWriteArrayList<>();

        Writer(ResourceClient<ConfigMap> configMaps) {
            this.configMaps = configMaps;
        }

        void start() {
            timer.scheduleWithFixedDelay(this::write, 0, 50, TimeUnit.MILLISECONDS);
        }

        private void write() {
            String name = "w-" + counter.incrementAndGet();
            boolean accepted;
            try {
                configMaps.create(InformerIT.configMap(name, "v"));
                accepted = true;
            } catch (RuntimeException e) {
                accepted = false;
            }
            attempts.add(new Attempt(name, System.nanoTime(), accepted));
        }

        /** The first write accepted after one that failed, both after {@code sinceNanos}: the server answering again. */
        Optional<Attempt> firstAcceptedAfterAnOutageSince(long sinceNanos) {
            boolean failed = false;
            for (Attempt attempt : attempts) {
                if (attempt.endedNanos() - sinceNanos < 0) {
                    continue;
                }
                if (!attempt.accepted()) {
                    failed = true;
                } else if (failed) {
                    return Optional.of(attempt);
                }
            }
            return Optional.empty();
        }

        /** The first write accepted after {@code sinceNanos}. */
        Optional<Attempt> firstAcceptedSince(long sinceNanos) {
            return attempts.stream().filter(a -> a.accepted() && a.endedNanos() - sinceNanos > 0).findFirst();
        }

        @Override
        public void close() {
            timer.shutdownNow();
        }
    }

    /**
     * One restart of kube-apiserver under the informers: per informer, the time from the first
     * write the restarted server accepted to its event, the relists it cost, and the errors seen.
     */
    record Restart(List<Duration> delays, int relists, Map<String, Long> errors) {

        static Restart run(LocalApiServer server, Setup setup) {
            int listsBefore = setup.probes.stream().mapToInt(Probe::lists).sum();
            setup.probes.forEach(p -> p.errors.clear());
            setup.probes.forEach(p -> p.forbiddenAt.clear());
            long began = System.nanoTime();
            server.restartApiServer();
            Writer.Attempt back = await().atMost(WAIT).until(() -> setup.writer.firstAcceptedAfterAnOutageSince(began),
                    Optional::isPresent).get();
            await().atMost(WAIT).until(() -> setup.probes.stream().allMatch(p -> p.arrivals.containsKey(back.name())));
            List<Duration> delays = setup.probes.stream()
                    .map(p -> Duration.ofNanos(p.arrivals.get(back.name()) - back.endedNanos())).toList();
            // Settled: every informer has seen a write accepted a second later.
            long settled = back.endedNanos() + Duration.ofSeconds(1).toNanos();
            Writer.Attempt later = await().atMost(WAIT).until(() -> setup.writer.firstAcceptedSince(settled),
                    Optional::isPresent).get();
            await().atMost(WAIT).until(() -> setup.probes.stream().allMatch(p -> p.arrivals.containsKey(later.name())));
            int relists = setup.probes.stream().mapToInt(Probe::lists).sum() - listsBefore;
            List<Long> forbidden = setup.probes.stream().flatMap(p -> p.forbiddenAt.stream())
                    .map(at -> Duration.ofNanos(at - back.endedNanos()).toMillis()).sorted().toList();
            if (!forbidden.isEmpty()) {
                log.info("403s from {} to {} ms after the server answered again", forbidden.get(0),
                        forbidden.get(forbidden.size() - 1));
            }
            Map<String, Long> errors = setup.probes.stream().flatMap(p -> p.errors.stream())
                    .map(Restart::kind).collect(Collectors.groupingBy(k -> k, Collectors.counting()));
            assertThat(delays).as("every informer caught up").hasSize(setup.probes.size());
            return new Restart(delays, relists, errors);
        }

        /** An error message without the parts that vary (names, versions, URLs). */
        private static String kind(String message) {
            String text = message.replaceAll("\"[^\"]*\"", "\"…\"").replaceAll("https?://\\S+", "URL")
                    .replaceAll("configmaps-\\d+", "configmaps-N");
            return text.length() > 160 ? text.substring(0, 160) : text;
        }
    }
}

package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.sharding.ShardLabels;
import dev.operatorstarter.test.Eventually;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sharding's scale-out (results in {@code docs/performance/sharding.md}): how reconciles per second
 * and heap divide over 1, 2, 3 replicas of a sharded operator, on the local API server.
 *
 * <p>For each replica count, in a namespace of its own: the replicas start as {@link ShardReplica}
 * JVMs (one sharded controller, {@value #WORKERS} worker, a reconcile that sleeps
 * {@link #RECONCILE_COST}) and the driver waits until they form the ring (every one a member, one
 * leading, the leader seeing all of them ready); then it creates the ConfigMaps ({@link Dataset#configMap},
 * 16 requests at a time), and waits until every object has a token, each replica's cache holds its
 * share and has reconciled it once, and no queue holds anything. The replicas join before the
 * objects exist so that the first assignment already spreads them, as in a running ring, instead
 * of handing them all to the first member and draining them away again. Then it writes one
 * annotation to every object (a merge patch, 16 at a time: faster than the replicas reconcile, so
 * their queues never run dry), waits until each object was reconciled with it, and asks each
 * replica for the heap it retains after a full GC.
 */
final class ShardingScaleOut {

    private static final Logger log = LoggerFactory.getLogger(ShardingScaleOut.class);

    /** What one reconcile costs: a sleep, so the figure is about dividing work, not CPU. */
    static final Duration RECONCILE_COST = Duration.ofMillis(20);
    /** Workers per replica. */
    static final int WORKERS = 1;
    private static final String RING = "scale-out";
    /** The {@link ShardReplica#WAVE} values: objects are created without one (wave 0), the change writes 1. */
    private static final String CREATED = "0";
    private static final String CHANGED = "1";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    /**
     * What to measure.
     *
     * @param objects the sharded ConfigMaps, at least 1
     * @param replicas the replica counts, each at least 1, ascending, each once
     */
    record Plan(int objects, List<Integer> replicas) {

        /** The full run: 3,000 objects over 1, 2 and 3 replicas. */
        static final Plan FULL = new Plan(3_000, List.of(1, 2, 3));
        /** {@code -quick}: the same steps with 600 objects. */
        static final Plan QUICK = new Plan(600, List.of(1, 2, 3));

        Plan {
            replicas = List.copyOf(replicas);
            if (objects < 1) {
                throw new IllegalArgumentException("objects must be at least 1, was " + objects);
            }
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("replicas must name at least one replica count");
            }
            for (int i = 0; i < replicas.size(); i++) {
                if (replicas.get(i) < 1 || i > 0 && replicas.get(i) <= replicas.get(i - 1)) {
                    throw new IllegalArgumentException("replicas must be counts of at least 1, ascending, each once, was "
                            + replicas);
                }
            }
        }
    }

    private ShardingScaleOut() {
    }

    /** Runs {@code plan} and returns its section of the results. */
    static String section(Plan plan, KubernetesClient admin, Path kubeconfig, Path work) throws Exception {
        long started = System.nanoTime();
        List<ScaleOutReport.Run> runs = new ArrayList<>();
        for (int replicas : plan.replicas()) {
            runs.add(run(plan.objects(), replicas, admin, kubeconfig, work));
        }
        ScaleOutReport report = new ScaleOutReport(plan.objects(), RECONCILE_COST, WORKERS, runs);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        return "### Sharding: scale-out\n\n" + String.format("%,d", plan.objects()) + " ConfigMaps (~1 KiB of data each), "
                + "one namespace per replica count; each replica a fresh JVM (-Xmx2g -XX:+UseG1GC) running a plain-Java "
                + "`Manager` with leader election and sharding (the default lease timings) and one sharded controller with "
                + WORKERS + " worker whose reconcile sleeps " + RECONCILE_COST.toMillis() + " ms. The replicas form the ring "
                + "first, then the objects are created; once every object has a token and every replica has reconciled "
                + "its share once, one annotation is written to every object and each replica times its reconciles of "
                + "that change. Reconciles/s: the change's reconciles across the replicas over the time from the first "
                + "one's start to the last one's end; per replica, its own over its own first to last. Ideal: every "
                + "worker sleeping back to back. Retained heap: the heap used after a full GC once the change was "
                + "reconciled, minus the same before the client was made (as in the scale curve); * marks the replica "
                + "that leads (it also runs the assigner, which caches the metadata of every object). Measuring took "
                + took.toSeconds() + " s.\n\n" + report.markdown();
    }

    private static ScaleOutReport.Run run(int objects, int replicas, KubernetesClient admin, Path kubeconfig, Path work)
            throws Exception {
        String namespace = "bench-sharding-" + objects + "-" + replicas;
        admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                .build());
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(namespace);
        List<ReplicaProcess> processes = new ArrayList<>();
        try {
            for (int i = 1; i <= replicas; i++) {
                String id = "s" + i;
                processes.add(ReplicaProcess.start(kubeconfig, namespace, RING, id, RECONCILE_COST, WORKERS,
                        work.resolve("sharding").resolve(namespace + "-" + id + ".log")));
            }
            for (ReplicaProcess process : processes) {
                process.awaitStarted(START_TIMEOUT);
            }
            await(replicas + " replicas to form the ring", START_TIMEOUT, processes, CREATED, statuses ->
                    statuses.stream().allMatch(status -> status.phase().equals("MEMBER"))
                    && leader(statuses).filter(leader -> leader.ready() == replicas).isPresent());
            log.info("sharding: {} replicas formed the ring; creating {} objects", replicas, objects);
            long creating = System.nanoTime();
            Dataset.inParallel(objects, i -> configMaps.create(Dataset.configMap(i)));
            Duration reconciling = RECONCILE_COST.multipliedBy(3L * objects / replicas).plus(START_TIMEOUT);
            List<ReplicaStatus> settled = await("every object assigned and reconciled once", reconciling, processes, CREATED,
                    statuses -> leader(statuses).filter(leader -> leader.unassigned() == 0 && leader.drains() == 0)
                            .isPresent()
                    && statuses.stream().mapToInt(ReplicaStatus::cached).sum() == objects
                    && statuses.stream().allMatch(status -> status.depth() == 0 && status.wave().count() >= status.cached()));
            Duration assigned = Duration.ofNanos(System.nanoTime() - creating);
            checkTokens(configMaps, processes, settled, objects);
            log.info("sharding: {} replicas settled after {} ms: {} objects each; changing every object", replicas,
                    assigned.toMillis(), settled.stream().map(status -> String.valueOf(status.cached())).toList());
            Dataset.inParallel(objects, i -> configMaps.patch(Dataset.configMap(i).getMetadata().getName(),
                    PatchType.MERGE, Map.of("metadata", Map.of("annotations", Map.of(ShardReplica.WAVE, CHANGED)))));
            List<ReplicaStatus> changed = await("every object reconciled after its change", reconciling, processes, CHANGED,
                    statuses -> statuses.stream().mapToInt(status -> status.wave().count()).sum() >= objects
                    && statuses.stream().allMatch(status -> status.depth() == 0));
            List<ScaleOutReport.Replica> results = new ArrayList<>();
            for (int i = 0; i < replicas; i++) {
                ReplicaStatus status = changed.get(i);
                results.add(new ScaleOutReport.Replica(processes.get(i).id(), status.leader(), status.cached(), status.wave(),
                        processes.get(i).retainedHeap()));
            }
            ScaleOutReport.Run run = new ScaleOutReport.Run(results, assigned);
            log.info("sharding: {} replicas: {} reconciles/s", replicas, String.format("%.1f", run.perSecond()));
            return run;
        } finally {
            for (ReplicaProcess process : processes) {
                process.close();
            }
        }
    }

    /** Waits until the replicas' statuses, with their reconciles of {@code wave}, satisfy {@code done}. */
    private static List<ReplicaStatus> await(String what, Duration timeout, List<ReplicaProcess> processes, String wave,
            Predicate<List<ReplicaStatus>> done) {
        return Eventually.await(what, timeout, () -> {
            List<ReplicaStatus> statuses = new ArrayList<>();
            for (ReplicaProcess process : processes) {
                try {
                    statuses.add(process.status(wave));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while asking " + process.id() + " for its status", e);
                }
            }
            return statuses;
        }, done);
    }

    private static Optional<ReplicaStatus> leader(List<ReplicaStatus> statuses) {
        List<ReplicaStatus> leaders = statuses.stream().filter(ReplicaStatus::leader).toList();
        return leaders.size() == 1 ? Optional.of(leaders.get(0)) : Optional.empty();
    }

    /** The server's view agrees with the replicas': each object's token names a replica whose cache holds as many. */
    private static void checkTokens(ResourceClient<ConfigMap> configMaps, List<ReplicaProcess> processes,
            List<ReplicaStatus> statuses, int objects) {
        String token = new ShardLabels(RING, processes.get(0).id()).token();
        Map<String, Long> byToken;
        try (Stream<ConfigMap> listed = configMaps.listAll(ListOptions.builder().labelSelector(ShardReplica.SELECTOR)
                .limit(500).build())) {
            byToken = listed.collect(Collectors.groupingBy(object -> String.valueOf(object.getMetadata().getLabels()
                    .get(token)), TreeMap::new, Collectors.counting()));
        }
        Map<String, Long> cached = new TreeMap<>();
        for (int i = 0; i < processes.size(); i++) {
            if (statuses.get(i).cached() > 0) {
                cached.put(processes.get(i).id(), (long) statuses.get(i).cached());
            }
        }
        if (!byToken.equals(cached) || byToken.values().stream().mapToLong(Long::longValue).sum() != objects) {
            throw new IllegalStateException("the server's tokens " + byToken + " do not match the replicas' caches "
                    + cached + " of " + objects + " objects");
        }
    }
}

package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.manager.ManagerOptions;
import dev.operatorstarter.sharding.HashRing;
import dev.operatorstarter.sharding.MemberState;
import dev.operatorstarter.sharding.Membership;
import dev.operatorstarter.sharding.RingStatus;
import dev.operatorstarter.sharding.ShardLabels;
import dev.operatorstarter.sharding.ShardedResource;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.sharding.ShardingOptions;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sharding end to end against the real API server ({@code docs/design/sharding.md}, "How it is
 * proved"): several managers in one JVM, each with its own client and informer factory, shard one
 * controller: every ConfigMap labelled {@code mirror=true} gets an owned copy
 * {@code <name>-mirror}, labelled {@code mirror-of}. The reconciles of all managers go into one log
 * of intervals (this JVM's monotonic clock), which must show no two managers reconciling one object
 * at once. Leases are as short as the leader-election chaos test's (2 s, renew deadline 1.5 s,
 * retry 0.3 s).
 *
 * <p>Where each object belongs is not read back from the assigner: it is the {@link HashRing}'s
 * prediction over the members' ids, computed here. The test uses the sharding's public API only, as
 * an operator's code would (it hosts the example of docs/controllers/sharding.md).
 */
@KubernetesTest
class ShardingIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(300);
    private static final int OBJECTS = 150;
    private static final ShardLabels LABELS = new ShardLabels("mirror", "any");

    private final Map<String, Replica> replicas = new ConcurrentHashMap<>();
    private final List<Reconcile> reconciles = new CopyOnWriteArrayList<>();
    private final Set<String> tainted = ConcurrentHashMap.newKeySet();
    /** Replicas whose reconciles do not end, interrupted or not, until the latch opens. */
    private final Map<String, CountDownLatch> stalled = new ConcurrentHashMap<>();
    private final CountDownLatch stalling = new CountDownLatch(1);
    private Duration shutdownTimeout = Duration.ofSeconds(10);
    private ClusterConnection connection;
    private String ns;
    private KubernetesClient admin;

    /** One manager with its client and the sharded controller's informers. */
    private record Replica(String id, KubernetesClient client, Manager manager, Sharding sharding,
            SharedIndexInformer<ConfigMap> primaries, SharedIndexInformer<ConfigMap> mirrors) {

        void close() {
            manager.close();
            client.close();
        }
    }

    /** One reconcile by replica {@code id} of object {@code key}, from {@code start} to {@code end} (nanoseconds). */
    private record Reconcile(String id, String key, long start, long end) {
    }

    @BeforeEach
    void connect(ClusterConnection cluster, TestNamespace namespace) {
        connection = cluster;
        ns = namespace.name();
        admin = KubernetesClient.create(KubeconfigLoader.load(cluster.kubeconfig(), null));
    }

    @AfterEach
    void closeAll() {
        replicas.values().forEach(Replica::close);
        admin.close();
    }

    @Test
    void threeManagersReconcileEveryObjectInItsOwnShardOnly() throws InterruptedException {
        HashRing ring = threeReplicasReconcileTheirShares();

        for (Reconcile reconcile : reconciles) {
            assertThat(reconcile.id()).as("the replica reconciling %s", reconcile.key())
                    .isEqualTo(ring.ownerOf(reconcile.key()).orElseThrow());
        }
        assertThat(replicas.values()).filteredOn(replica -> replica.manager().isActive()).as("the leader").hasSize(1);
        assertThat(replicas.values()).allSatisfy(replica -> {
            assertThat(replica.manager().isActive(RunnableGroup.MEMBER_TERM)).isTrue();
            assertThat(replica.manager().controllers()).singleElement().satisfies(status -> {
                assertThat(status.sharded()).isTrue();
                assertThat(status.running()).isTrue();
            });
            assertThat(replica.sharding().status().assigner()).isEqualTo(replica.manager().isActive());
        });
        assertNoOverlaps();
        assertThat(tainted).isEmpty();
    }

    @Test
    void aFourthManagerReceivesExactlyTheKeysTheRingGivesIt() throws InterruptedException {
        HashRing before = threeReplicasReconcileTheirShares();

        start("replica-4");

        HashRing after = HashRing.of(Set.of("replica-1", "replica-2", "replica-3", "replica-4"), 100);
        Set<String> moving = keys().stream().filter(key -> !after.ownerOf(key).equals(before.ownerOf(key)))
                .collect(Collectors.toSet());
        assertThat(moving).as("the keys the ring moves").isNotEmpty()
                .allSatisfy(key -> assertThat(after.ownerOf(key)).contains("replica-4"));
        awaitShares(after);
        Set<String> reconciledByTheNewMember = reconciles.stream().filter(r -> r.id().equals("replica-4"))
                .map(Reconcile::key).collect(Collectors.toSet());
        assertThat(reconciledByTheNewMember).as("what the fourth manager reconciled").isEqualTo(moving);
        assertThat(reconciles).filteredOn(r -> !moving.contains(r.key())).as("reconciles of the keys that stay")
                .allSatisfy(r -> assertThat(r.id()).as(r.key()).isEqualTo(after.ownerOf(r.key()).orElseThrow()));
        assertThat(reconciles).filteredOn(r -> moving.contains(r.key())).as("reconciles of the keys that move")
                .allSatisfy(r -> assertThat(r.id()).as(r.key()).isIn(before.ownerOf(r.key()).orElseThrow(), "replica-4"));
        for (String key : moving) {
            long leftAt = reconciles.stream().filter(r -> r.key().equals(key) && !r.id().equals("replica-4"))
                    .mapToLong(Reconcile::end).max().orElseThrow();
            long arrivedAt = reconciles.stream().filter(r -> r.key().equals(key) && r.id().equals("replica-4"))
                    .mapToLong(Reconcile::start).min().orElseThrow();
            assertThat(leftAt).as("%s: its last reconcile where it was ended before its first on the new member", key)
                    .isLessThan(arrivedAt);
        }
        System.out.printf("ShardingIT: a fourth member took %d of %d objects (%.2f)%n", moving.size(), OBJECTS,
                moving.size() / (double) OBJECTS);
        assertNoOverlaps();
        assertThat(tainted).isEmpty();
    }

    @Test
    void aClosedManagerReleasesItsLeaseAndItsObjectsAreReconciledElsewhereAtOnce() throws InterruptedException {
        HashRing before = threeReplicasReconcileTheirShares();
        Replica leaving = replicas.values().stream().filter(replica -> !replica.manager().isActive()).findFirst()
                .orElseThrow();
        Set<String> survivors = new TreeSet<>(replicas.keySet());
        survivors.remove(leaving.id());
        Lease held = lease(leaving.id());

        long closing = System.nanoTime();
        replicas.remove(leaving.id()).close();
        int reconciledBefore = reconciles.size(); // nothing of the closed manager runs any more

        Lease released = lease(leaving.id());
        assertThat(released.getSpec().getHolderIdentity()).as("released by the member itself").isEmpty();
        assertThat(released.getSpec().getLeaseTransitions()).isEqualTo(held.getSpec().getLeaseTransitions());
        HashRing after = HashRing.of(survivors, 100);
        awaitShares(after);
        long reassigned = System.nanoTime();
        Set<String> moved = keys().stream().filter(key -> before.ownerOf(key).orElseThrow().equals(leaving.id()))
                .collect(Collectors.toSet());
        assertThat(moved).isNotEmpty();
        List<Reconcile> sinceTheClose = List.copyOf(reconciles);
        assertThat(sinceTheClose.subList(reconciledBefore, sinceTheClose.size())).as("reconciles since the close")
                .allSatisfy(r -> assertThat(r.id()).isIn(survivors))
                .extracting(Reconcile::key).containsAll(moved);
        Lease afterwards = lease(leaving.id());
        assertThat(afterwards.getSpec().getHolderIdentity()).as("never taken: moved on the release, not on expiry")
                .isEmpty();
        assertThat(afterwards.getSpec().getLeaseTransitions()).isEqualTo(held.getSpec().getLeaseTransitions());
        System.out.printf("ShardingIT: %d objects of a closed member reconciled elsewhere %d ms after its close began "
                + "(lease duration %d ms)%n", moved.size(), Duration.ofNanos(reassigned - closing).toMillis(),
                LEASE.toMillis());
        assertNoOverlaps();
        assertThat(tainted).isEmpty();
    }

    @Test
    void aManagerWhoseShardDidNotStopInTimeLeavesItsLeaseToExpireInsteadOfReleasingIt() throws InterruptedException {
        shutdownTimeout = Duration.ofMillis(200);
        CountDownLatch stall = new CountDownLatch(1);
        stalled.put("replica-1", stall);
        try {
            start("replica-1");
            await().atMost(WAIT).until(() -> assignerSees(Set.of("replica-1")));
            admin.coreV1().configMaps().inNamespace(ns).create(new ConfigMapBuilder().withNewMetadata()
                    .withName("stuck").addToLabels("mirror", "true").endMetadata().build());
            assertThat(stalling.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a reconcile that will not stop").isTrue();
            Replica stuck = replicas.remove("replica-1");

            stuck.close(); // gives up on the reconcile after the shutdown timeout (a second at the least)

            Lease lease = lease("replica-1");
            assertThat(lease.getSpec().getHolderIdentity()).as("not released while a reconcile runs")
                    .isEqualTo("replica-1");
            assertThat(stuck.sharding().membership().phase()).isEqualTo(Membership.Phase.LEFT);
            assertThat(stuck.manager().controllers()).singleElement()
                    .satisfies(status -> assertThat(status.running()).isFalse());
        } finally {
            stall.countDown();
        }
    }

    // ---- the managers

    /**
     * Starts three replicas, waits until the assigner sees all three ready, creates the objects and
     * waits until every one is reconciled where the ring of the three puts it; returns that ring.
     */
    private HashRing threeReplicasReconcileTheirShares() throws InterruptedException {
        for (String id : List.of("replica-1", "replica-2", "replica-3")) {
            start(id);
        }
        await().atMost(WAIT).until(() -> assignerSees(replicas.keySet()));
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(ns);
        for (int i = 0; i < OBJECTS; i++) {
            configMaps.create(new ConfigMapBuilder().withNewMetadata().withName(String.format("site-%03d", i))
                    .addToLabels("mirror", "true").endMetadata().addToData("index", Integer.toString(i)).build());
        }
        HashRing ring = HashRing.of(replicas.keySet(), 100);
        awaitShares(ring);
        return ring;
    }

    /**
     * Waits until every object carries the token {@code ring} gives it, has been reconciled there and
     * has its mirror, which carries the same token, and each replica's caches hold its share exactly.
     */
    private void awaitShares(HashRing ring) {
        await().atMost(WAIT).untilAsserted(() -> {
            Map<String, ConfigMap> objects = byKey("mirror=true");
            Map<String, ConfigMap> mirrors = byKey("mirror-of");
            assertThat(objects).hasSize(OBJECTS);
            for (Map.Entry<String, ConfigMap> object : objects.entrySet()) {
                String owner = ring.ownerOf(object.getKey()).orElseThrow();
                assertThat(token(object.getValue())).as("the token of %s", object.getKey()).isEqualTo(owner);
                assertThat(mirrors.get(object.getKey() + "-mirror")).as("the mirror of %s", object.getKey())
                        .isNotNull().extracting(ShardingIT::token).isEqualTo(owner);
                assertThat(reconciles).as("reconciles of %s", object.getKey())
                        .anyMatch(r -> r.key().equals(object.getKey()) && r.id().equals(owner));
            }
            for (Replica replica : replicas.values()) {
                Set<String> share = objects.keySet().stream()
                        .filter(key -> ring.ownerOf(key).orElseThrow().equals(replica.id())).collect(Collectors.toSet());
                assertThat(keysOf(replica.primaries())).as("%s's cache of objects", replica.id()).isEqualTo(share);
                assertThat(keysOf(replica.mirrors())).as("%s's cache of mirrors", replica.id())
                        .isEqualTo(share.stream().map(key -> key + "-mirror").collect(Collectors.toSet()));
            }
        });
    }

    private boolean assignerSees(Set<String> members) {
        return replicas.values().stream().map(replica -> replica.sharding().status()).filter(RingStatus::assigner)
                .anyMatch(status -> status.members().stream().filter(member -> member.state() == MemberState.READY)
                        .map(RingStatus.MemberStatus::shardId).collect(Collectors.toSet()).equals(members));
    }

    /** Starts replica {@code id}: the example of docs/controllers/sharding.md. */
    private void start(String id) throws InterruptedException {
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        // --- example start
        SharedInformerFactory informers = new SharedInformerFactory(client, InformerOptions.defaults());
        Sharding sharding = Sharding.builder(client, informers, ShardingOptions.builder("mirror", id, ns)
                        .leaseDuration(LEASE).renewDeadline(RENEW).retryPeriod(RETRY) // short, for the test
                        .build())
                .onTainted(() -> tainted.add(id)) // an operator exits here, to join again as a new member
                .build();
        Manager manager = Manager.builder(client)
                .informers(informers) // the sharding's
                .leaderElection(LeaseLock.of(client, ns, "mirror-leader", id), election -> election
                        .leaseDuration(LEASE).renewDeadline(RENEW).retryPeriod(RETRY))
                .plugin(sharding) // the member's terms, and the assigner in the leader's
                .options(ManagerOptions.builder().shutdownTimeout(shutdownTimeout).build()) // the test's
                .build();
        ResourceClient<ConfigMap> api = client.coreV1().configMaps();
        Controller<ConfigMap> controller = manager.controller(ConfigMap.class).named("mirror")
                .namespaces(ns).labelSelector("mirror=true")
                .owns(ConfigMap.class).ownedLabelSelector("mirror-of")
                .decoratedBy(recorded(id)) // the test's log of reconciles, inside the sharding's decorator
                .extendedBy(sharding) // narrows the caches to this shard's share, runs in the member's terms
                .reconcile(request -> {
                    Optional<ConfigMap> source = manager.lister(ConfigMap.class).namespace(request.namespace())
                            .get(request.name());
                    if (source.isEmpty()) {
                        return ReconcileResult.done(); // deleted: the garbage collector removes the mirror
                    }
                    ConfigMap mirror = new ConfigMapBuilder().withNewMetadata()
                            .withNamespace(request.namespace()).withName(request.name() + "-mirror")
                            .addToLabels("mirror-of", request.name()).endMetadata()
                            .withData(source.get().getData()).build();
                    OwnerReferences.setController(source.get(), mirror); // also copies the shard's token
                    api.inNamespace(request.namespace()).apply(mirror, PatchOptions.apply("mirror-operator"));
                    return ReconcileResult.done();
                });
        manager.start(); // informers → cache sync → member and leader campaigns → the shard's controllers per member term
        // --- example end
        SharedIndexInformer<ConfigMap> configMaps = controller.primaries().get(0);
        SharedIndexInformer<ConfigMap> mirrors = informers.informerFor(ConfigMap.class,
                sharding.narrow(InformerScope.namespace(ns).withLabelSelector("mirror-of"))); // the controller's, shared
        replicas.put(id, new Replica(id, client, manager, sharding, configMaps, mirrors));
    }

    /**
     * Records each reconcile that reaches the controller's handler; applied before the sharding's
     * decorator, so it sits inside it and sees what the shard lets through (no acknowledgements).
     */
    private ControllerDecorator<ConfigMap> recorded(String id) {
        return new ControllerDecorator<>() {
            @Override
            public ReconcileHandler<ConfigMap> handler(ReconcileHandler<ConfigMap> handler,
                    Function<ReconcileRequest, Optional<ConfigMap>> cache) {
                return request -> {
                    long start = System.nanoTime();
                    try {
                        CountDownLatch stall = stalled.get(id);
                        if (stall != null) {
                            stalling.countDown();
                            Uninterruptibly.await(stall); // as a reconcile that ignores interrupts
                        }
                        return handler.reconcile(request);
                    } finally {
                        reconciles.add(new Reconcile(id, request.key(), start, System.nanoTime()));
                    }
                };
            }
        };
    }

    // ---- checks

    /** No two replicas reconciled one object at the same time. */
    private void assertNoOverlaps() {
        Map<String, List<Overlaps.Interval>> byKey = new HashMap<>();
        reconciles.forEach(r -> byKey.computeIfAbsent(r.key(), key -> new ArrayList<>())
                .add(new Overlaps.Interval(r.id(), r.start(), r.end())));
        List<Overlaps.Overlap> overlaps = new ArrayList<>();
        byKey.forEach((key, intervals) -> overlaps.addAll(Overlaps.among(key, intervals)));
        assertThat(overlaps).as("reconciles of one object by two replicas at once").isEmpty();
    }

    private Set<String> keys() {
        return byKey("mirror=true").keySet();
    }

    private Map<String, ConfigMap> byKey(String selector) {
        return admin.coreV1().configMaps().inNamespace(ns).list(ListOptions.builder().labelSelector(selector).build())
                .items().stream().collect(Collectors.toMap(object -> ns + "/" + object.getMetadata().getName(),
                        object -> object));
    }

    private static Set<String> keysOf(SharedIndexInformer<ConfigMap> informer) {
        return informer.indexer().list().stream().map(object -> object.getMetadata().getNamespace() + "/"
                + object.getMetadata().getName()).collect(Collectors.toSet());
    }

    private Lease lease(String id) {
        return admin.coordinationV1().leases().inNamespace(ns).get(ShardLabels.leaseName("mirror", id));
    }

    private static String token(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? null : labels.get(LABELS.token());
    }
}

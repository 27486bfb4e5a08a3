package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.testing.FakeLeadership;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The assigner against the real API server, with no real shards: its members are Leases this test
 * writes and renews, and an acknowledgement is a patch this test writes as a shard would. Primary
 * objects are ConfigMaps labelled {@code role=primary}; each may control a ConfigMap and a Secret
 * labelled {@code role=child}.
 *
 * <p>The order of writes is read from resourceVersions: the server here runs one etcd, whose
 * revisions number every write of every resource in the order it was made.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class AssignerIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String RING = "ring";
    private static final String ASSIGNER = "leader";
    /**
     * The lease duration of a member the test lets expire: the assigner takes its Lease once it went
     * unrenewed this long. The others' is long, so that a renewal delayed on a busy machine expires nothing.
     */
    private static final Duration SHORT_LEASE = Duration.ofSeconds(2);
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final ShardLabels LABELS = new ShardLabels(RING, ASSIGNER);
    private static KubernetesClient client;

    private final ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor();
    private final Map<String, ScheduledFuture<?>> renewing = new ConcurrentHashMap<>();
    private Assigner assigner;
    private FakeLeadership leadership;
    private String namespace;

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (assigner != null) {
            assigner.onStoppedLeading();
        }
        renewals.shutdownNow();
        renewals.awaitTermination(10, TimeUnit.SECONDS);
    }

    @Test
    void tokenlessObjectsGetTheRingsShardTheirChildrenFirstAndTheirArrivalCounts(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("b");
        join("c");
        List<String> names = primaries(12, true);
        configMaps().create(primary("lonely"));

        lead();

        HashRing ring = HashRing.of(Set.of("a", "b", "c"), 100);
        await().atMost(WAIT).until(() -> tokens().size() == 13);
        assertThat(tokens()).allSatisfy((name, token) -> assertThat(token).as(name)
                .isEqualTo(ring.ownerOf(namespace + "/" + name).orElseThrow()));
        for (String name : names) {
            ConfigMap owner = configMaps().get(name);
            assertThat(owner.getMetadata().getAnnotations()).containsEntry(LABELS.arrival(), "configmaps=1,secrets=1");
            for (HasMetadata child : List.of(configMaps().get(name + "-child"), secrets().get(name + "-child"))) {
                assertThat(child.getMetadata().getLabels()).as(child.getKind() + " " + name + "-child")
                        .containsEntry(LABELS.token(), token(owner));
                assertThat(version(child)).as("labelled before its owner").isLessThan(version(owner));
            }
        }
        assertThat(configMaps().get("lonely").getMetadata().getAnnotations()).as("no children, no arrival")
                .doesNotContainKey(LABELS.arrival());
        await().atMost(WAIT).until(() -> List.of("a", "b", "c").stream()
                .allMatch(member -> "ready".equals(lease(member).getMetadata().getLabels().get(ShardLabels.STATE_LABEL))));
        // the status counts the tokens in the assigner's cache, which shows its own writes a moment after the server
        await().atMost(WAIT).untilAsserted(() -> {
            AssignerStatus seen = assigner.status().orElseThrow();
            assertThat(seen.members()).extracting(RingStatus.MemberStatus::state).containsOnly(MemberState.READY);
            assertThat(seen.members()).extracting(RingStatus.MemberStatus::objects).containsExactlyElementsOf(
                    List.of("a", "b", "c").stream().map(member -> (int) tokens().values().stream()
                            .filter(member::equals).count()).toList());
        });
        AssignerStatus status = assigner.status().orElseThrow();
        assertThat(status.unassigned()).isZero();
        assertThat(status.pendingDrains()).isZero();
    }

    @Test
    void aJoiningMemberIsAskedToTakeExactlyTheKeysTheRingMovesEachOnlyAfterItsShardAcknowledged(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("b");
        join("c");
        List<String> names = primaries(40, false);
        lead();
        HashRing before = HashRing.of(Set.of("a", "b", "c"), 100);
        await().atMost(WAIT).until(() -> tokens().size() == names.size());
        Map<String, String> held = tokens();

        join("d");

        HashRing after = HashRing.of(Set.of("a", "b", "c", "d"), 100);
        List<String> moving = names.stream()
                .filter(name -> !after.ownerOf(key(name)).equals(before.ownerOf(key(name)))).sorted().toList();
        assertThat(moving).as("the ring moves some of the 40 keys").isNotEmpty();
        assertThat(moving).allSatisfy(name -> assertThat(after.ownerOf(key(name))).contains("d"));
        await().atMost(WAIT).until(() -> drained().equals(Set.copyOf(moving)));
        assertThat(tokens()).as("no token moves without an acknowledgement").isEqualTo(held);

        List<String> acked = moving.subList(0, (moving.size() + 1) / 2);
        List<String> waiting = moving.subList(acked.size(), moving.size());
        acked.forEach(this::acknowledge);

        await().atMost(WAIT).until(() -> acked.stream().allMatch(name -> "d".equals(tokens().get(name))));
        for (String name : acked) {
            ConfigMap owner = configMaps().get(name);
            assertThat(owner.getMetadata().getLabels()).doesNotContainKey(LABELS.drain());
            assertThat(owner.getMetadata().getAnnotations()).containsEntry(LABELS.arrival(), "configmaps=1");
            assertThat(configMaps().get(name + "-child").getMetadata().getLabels()).containsEntry(LABELS.token(), "d");
        }
        assertThat(drained()).as("the others still wait for their acknowledgement")
                .containsExactlyInAnyOrderElementsOf(waiting);
        assertThat(waiting).allSatisfy(name -> assertThat(tokens().get(name)).isEqualTo(held.get(name)));
        await().atMost(WAIT).until(() -> assigner.status().orElseThrow().pendingDrains() == waiting.size());
        assertThat(assigner.status().orElseThrow().oldestPendingDrain()).isNotNull();

        waiting.forEach(this::acknowledge);

        await().atMost(WAIT).until(() -> names.stream()
                .allMatch(name -> after.ownerOf(key(name)).orElseThrow().equals(tokens().get(name))));
        assertThat(drained()).isEmpty();
    }

    @Test
    void anExpiredMembersLeaseIsTakenAndThenItsObjectsAreForcedToTheOthers(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("b");
        join("c", SHORT_LEASE);
        List<String> names = primaries(20, true);
        lead();
        await().atMost(WAIT).until(() -> tokens().size() == names.size());
        Map<String, String> held = tokens();
        assertThat(held).containsValue("c");

        renewing.remove("c").cancel(false);

        HashRing survivors = HashRing.of(Set.of("a", "b"), 100);
        await().atMost(WAIT).until(() -> names.stream()
                .allMatch(name -> survivors.ownerOf(key(name)).orElseThrow().equals(tokens().get(name))));
        Lease taken = lease("c");
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo("assigner:" + ASSIGNER);
        assertThat(taken.getSpec().getLeaseTransitions()).isEqualTo(1);
        assertThat(taken.getMetadata().getLabels()).containsEntry(ShardLabels.STATE_LABEL, "dead")
                .containsEntry(ShardLabels.SHARD_LABEL, "c");
        for (String name : names) {
            ConfigMap owner = configMaps().get(name);
            if ("c".equals(held.get(name))) {
                assertThat(version(owner)).as("%s moved after the take", name).isGreaterThan(version(taken));
            } else {
                assertThat(token(owner)).as("%s stays where it was", name).isEqualTo(held.get(name));
            }
            assertThat(configMaps().get(name + "-child").getMetadata().getLabels())
                    .containsEntry(LABELS.token(), token(owner));
            assertThat(secrets().get(name + "-child").getMetadata().getLabels())
                    .containsEntry(LABELS.token(), token(owner));
        }
    }

    @Test
    void aReleasedMembersObjectsMoveAtOnceAndItsLeaseIsDeletedOnceOrphaned(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("b");
        List<String> names = primaries(10, false);
        lead();
        await().atMost(WAIT).until(() -> tokens().size() == names.size());
        assertThat(tokens()).containsValue("b");

        release("b");

        await().atMost(WAIT).until(() -> tokens().values().stream().allMatch("a"::equals));
        await().atMost(WAIT).until(() -> leases().find(ShardLabels.leaseName(RING, "b")).isEmpty());
        assertThat(leases().find(ShardLabels.leaseName(RING, "a"))).isPresent();
        await().atMost(WAIT).until(() -> assigner.status().orElseThrow().members().stream()
                .map(RingStatus.MemberStatus::shardId).toList().equals(List.of("a")));
    }

    @Test
    void aMemberWhoseLeaseIsDeletedOrNeverSeenKeepsItsObjectsForALeaseDurationThenTheyMove(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("c", SHORT_LEASE);
        List<String> names = primaries(8, false);
        for (String name : List.of("z-0", "z-1")) { // assigned to a member whose Lease is gone already
            configMaps().create(new ConfigMapBuilder(primary(name)).editMetadata().addToLabels(LABELS.token(), "z")
                    .endMetadata().build());
        }
        long leading = System.nanoTime();
        lead();
        awaitNoTokenOf("z", leading, "the Lease informer synced");
        await().atMost(WAIT).until(() -> tokens().size() == names.size() + 2);
        Map<String, String> held = tokens();
        assertThat(held).containsValue("c");

        renewing.remove("c").cancel(false);
        long deleting = System.nanoTime();
        leases().delete(ShardLabels.leaseName(RING, "c")); // while c still held it: its term may still run

        awaitNoTokenOf("c", deleting, "the deletion");
        assertThat(tokens()).allSatisfy((name, token) -> assertThat(token).as(name).isEqualTo("a"));
    }

    @Test
    void nothingIsWrittenWhileTheTermIsNotValidNorAfterItEndedAndTheNextTermResumes(TestNamespace test) {
        namespace = test.name();
        join("a");
        join("b", SHORT_LEASE);
        List<String> names = primaries(5, false);
        lead();
        await().atMost(WAIT).until(() -> tokens().size() == names.size());
        Map<String, String> held = tokens();

        leadership.setValid(false); // the renew deadline passed: the term may be over
        configMaps().create(primary("late"));
        renewing.remove("b").cancel(false);

        await().during(SHORT_LEASE.plusSeconds(1)).atMost(WAIT).until(() -> !tokens().containsKey("late")
                && "b".equals(lease("b").getSpec().getHolderIdentity()));

        leadership.end();
        assigner.onStoppedLeading();
        assertThat(assigner.status()).isEmpty();
        configMaps().create(primary("later"));

        await().during(Duration.ofSeconds(1)).atMost(WAIT).until(() -> tokens().equals(held)
                && "b".equals(lease("b").getSpec().getHolderIdentity()));

        lead(); // a new term: everything it needs is in the labels and the Leases

        await().atMost(WAIT).until(() -> tokens().size() == names.size() + 2
                && tokens().values().stream().allMatch("a"::equals));
        assertThat(lease("b").getSpec().getHolderIdentity()).isEqualTo("assigner:" + ASSIGNER);
    }

    /** Waits until no token names {@code shard}; that took at least the lease duration since {@code sinceNanos}. */
    private void awaitNoTokenOf(String shard, long sinceNanos, String since) {
        await().atMost(WAIT).until(() -> !tokens().containsValue(shard));
        assertThat(Duration.ofNanos(System.nanoTime() - sinceNanos)).as("a lease duration after " + since)
                .isGreaterThanOrEqualTo(SHORT_LEASE);
    }

    // ---- the assigner

    private void lead() {
        leadership = new FakeLeadership();
        if (assigner == null) {
            assigner = new Assigner(client, ShardingOptions.builder(RING, ASSIGNER, namespace)
                    .leaseDuration(SHORT_LEASE).renewDeadline(Duration.ofMillis(1500)).retryPeriod(Duration.ofMillis(300))
                    .orphanTtl(Duration.ofSeconds(2)).assignerWorkers(2).build());
            InformerScope scope = InformerScope.namespace(namespace);
            assigner.register(ShardedResource.of(ResourceType.of(ConfigMap.class), List.of(scope.withLabelSelector(
                    "role=primary"))).owning(ResourceType.of(ConfigMap.class).groupVersionResource(),
                    List.of(scope.withLabelSelector("role=child")))
                    .owning(ResourceType.of(Secret.class).groupVersionResource(),
                            List.of(scope.withLabelSelector("role=child"))));
        }
        assigner.onStartedLeading(leadership);
    }

    // ---- the members, as Leases

    /** Member {@code shardId} creates its Lease, of the long lease duration, and renews it every 300 ms. */
    private void join(String shardId) {
        join(shardId, LEASE);
    }

    /** Member {@code shardId} creates its Lease, of {@code leaseDuration}, and renews it every 300 ms. */
    private void join(String shardId, Duration leaseDuration) {
        leases().create(new LeaseBuilder().withNewMetadata().withName(ShardLabels.leaseName(RING, shardId))
                .addToLabels(ShardLabels.RING_LABEL, RING).addToLabels(ShardLabels.SHARD_LABEL, shardId).endMetadata()
                .withSpec(LeaderElectionRecord.first(shardId, leaseDuration, Instant.now()).toLeaseSpec()).build());
        renewing.put(shardId, renewals.scheduleWithFixedDelay(() -> renew(shardId), 300, 300, TimeUnit.MILLISECONDS));
    }

    private void renew(String shardId) {
        try {
            Lease current = lease(shardId);
            LeaderElectionRecord record = LeaderElectionRecord.of(current.getSpec());
            if (record.holderIdentity().equals(shardId)) {
                current.setSpec(record.writtenBy(shardId, record.leaseDuration(), Instant.now()).toLeaseSpec());
                leases().update(current);
            }
        } catch (RuntimeException e) {
            // a conflict with the assigner's label, or a take: the next renewal reads again
        }
    }

    /** Member {@code shardId} stops and releases its Lease, as a member whose controllers all stopped does. */
    private void release(String shardId) {
        renewing.remove(shardId).cancel(false);
        Lease current = lease(shardId);
        Instant now = Instant.now();
        current.setSpec(new LeaderElectionRecord("", Duration.ofSeconds(1), now, now,
                LeaderElectionRecord.of(current.getSpec()).leaderTransitions()).toLeaseSpec());
        leases().update(current);
    }

    /** The shard holding {@code name} acknowledges its drain, as {@link ShardDecorator} does. */
    private void acknowledge(String name) {
        ConfigMap owner = configMaps().get(name);
        configMaps().patch(name, PatchType.MERGE, ShardDecorator.ackPatch(new ShardLabels(RING, token(owner)),
                owner.getMetadata().getResourceVersion()));
    }

    private Lease lease(String shardId) {
        return leases().get(ShardLabels.leaseName(RING, shardId));
    }

    private ResourceClient<Lease> leases() {
        return client.coordinationV1().leases().inNamespace(namespace);
    }

    // ---- the objects

    /** Primaries {@code p-00}, {@code p-01}...: each controls a ConfigMap, and a Secret when {@code secrets}. */
    private List<String> primaries(int count, boolean secrets) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = String.format("p-%02d", i);
            ConfigMap owner = configMaps().create(primary(name));
            ConfigMap child = new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name + "-child")
                    .addToLabels("role", "child").endMetadata().build();
            OwnerReferences.setController(owner, child);
            configMaps().create(child);
            if (secrets) {
                Secret secret = new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name + "-child")
                        .addToLabels("role", "child").endMetadata().build();
                OwnerReferences.setController(owner, secret);
                secrets().create(secret);
            }
            names.add(name);
        }
        return names;
    }

    private static ConfigMap primary(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("role", "primary").endMetadata().build();
    }

    /** The token of every primary that has one, by name. */
    private Map<String, String> tokens() {
        return primaryObjects().stream().filter(owner -> token(owner) != null)
                .collect(Collectors.toMap(owner -> owner.getMetadata().getName(), AssignerIT::token));
    }

    /** The primaries whose drain is requested. */
    private Set<String> drained() {
        return primaryObjects().stream().filter(owner -> owner.getMetadata().getLabels().containsKey(LABELS.drain()))
                .map(owner -> owner.getMetadata().getName()).collect(Collectors.toSet());
    }

    private List<ConfigMap> primaryObjects() {
        return configMaps().list(ListOptions.builder().labelSelector("role=primary").build())
                .items();
    }

    private String key(String name) {
        return namespace + "/" + name;
    }

    private static @Nullable String token(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? null : labels.get(LABELS.token());
    }

    private static long version(HasMetadata object) {
        return Long.parseLong(object.getMetadata().getResourceVersion());
    }

    private ResourceClient<ConfigMap> configMaps() {
        return client.coreV1().configMaps().inNamespace(namespace);
    }

    private ResourceClient<Secret> secrets() {
        return client.coreV1().secrets().inNamespace(namespace);
    }
}

package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Leader election on a real Lease, in one JVM. Three candidates in JVM processes of their own, killed,
 * paused, shut down and cut off, are {@link LeaderElectionChaosIT}'s.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class LeaderElectionIT {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RENEW = Duration.ofSeconds(2);
    private static final Duration RETRY = Duration.ofMillis(500);
    private static KubernetesClient client;
    private static ClusterConnection cluster;

    @BeforeAll
    static void connect(ClusterConnection connection, KubernetesClient admin) {
        cluster = connection;
        client = admin;
    }

    private static String holder(String namespace, String lease) {
        return client.coordinationV1().leases().inNamespace(namespace).find(lease)
                .map(l -> l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity()).orElse("");
    }

    /** Records terms as "start"/"stop" strings and keeps each term's leadership. */
    static final class Recorder implements LeaderCallbacks {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Leadership> terms = new CopyOnWriteArrayList<>();

        @Override
        public void onStartedLeading(Leadership leadership) {
            terms.add(leadership);
            events.add("start");
        }

        @Override
        public void onStoppedLeading() {
            events.add("stop");
        }
    }

    private static LeaderElector elector(String namespace, String identity, Recorder recorder,
            SimpleMeterRegistry registry) {
        return new LeaderElector(LeaderElectionConfig.builder(LeaseLock.of(client, namespace, "in-jvm", identity),
                recorder).leaseDuration(LEASE).renewDeadline(RENEW).retryPeriod(RETRY).name(identity)
                .metrics(LeaderMetrics.micrometer(registry)).build());
    }

    @Test
    void oneOfTwoLeadsAClosedLeaderHandsOverAndALeaderThatLostIsElectedAgain(TestNamespace namespace)
            throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        LeaderElector first = elector(namespace.name(), "a", a, registry);
        LeaderElector second = elector(namespace.name(), "b", b, registry);
        first.start();
        await().atMost(Duration.ofSeconds(20)).until(first::isLeader);
        second.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> second.leader().equals("a"));
        assertThat(second.isLeader()).isFalse();
        assertThat(registry.get("leader.election.master.status").tag("name", "a").gauge().value()).isEqualTo(1);
        // Renewals keep what others put on the Lease's metadata.
        client.coordinationV1().leases().inNamespace(namespace.name()).patch("in-jvm",
                PatchType.MERGE, Map.of("metadata", Map.of("labels",
                        Map.of("team", "platform"))));
        String labelled = client.coordinationV1().leases().inNamespace(namespace.name()).get("in-jvm")
                .getMetadata().getResourceVersion();
        await().atMost(Duration.ofSeconds(20)).until(() -> !client.coordinationV1().leases()
                .inNamespace(namespace.name()).get("in-jvm").getMetadata().getResourceVersion().equals(labelled));
        assertThat(client.coordinationV1().leases().inNamespace(namespace.name()).get("in-jvm").getMetadata()
                .getLabels()).containsEntry("team", "platform");

        // Someone else takes the lease (as after a partition): a stops at once, then wins it back
        // when the intruder does not renew, without a restart. b may win instead; one of them leads.
        ResourceClient<Lease> leases = client.coordinationV1().leases().inNamespace(namespace.name());
        Lease lease = leases.get("in-jvm");
        lease.getSpec().setHolderIdentity("intruder");
        leases.update(lease);
        await().atMost(Duration.ofSeconds(20)).until(() -> a.events.contains("stop"));
        assertThat(a.terms.get(0).isValid()).isFalse();
        await().atMost(Duration.ofSeconds(30)).until(() -> first.isLeader() || second.isLeader());
        assertThat(first.isLeader() && second.isLeader()).isFalse();

        LeaderElector leader = first.isLeader() ? first : second;
        LeaderElector follower = leader == first ? second : first;
        long closed = System.nanoTime();
        leader.close();
        await().atMost(Duration.ofSeconds(20)).until(follower::isLeader);
        Duration handover = Duration.ofNanos(System.nanoTime() - closed);
        assertThat(handover).as("a released lease is taken at the next attempt, not after the lease duration")
                .isLessThan(LEASE.plus(RETRY));
        follower.close();
        assertThat(holder(namespace.name(), "in-jvm")).as("released on close").isEmpty();

        // Elected again after losing: a, with no restart, either took the lease back or handed it over.
        assertThat(a.events).startsWith("start", "stop");
        assertThat(registry.get("leader.election.master.status").tag("name", "a").gauge().value()).isZero();
    }

    @Test
    void aLabelledLockCreatesTheLeaseWithItsLabelsAndPutsThemBackOnEveryUpdate(TestNamespace namespace) {
        ResourceClient<Lease> leases = client.coordinationV1().leases().inNamespace(namespace.name());
        LeaseLock lock = LeaseLock.of(client, namespace.name(), "labelled", "a").withLabels(Map.of("ring", "one"));
        Instant now = Instant.now();
        lock.create(LeaderElectionRecord.first("a", LEASE, now), LEASE);
        assertThat(leases.get("labelled").getMetadata().getLabels()).containsExactly(Map.entry("ring", "one"));

        // Someone adds a label of their own and changes ours: the next update keeps theirs and restores ours.
        leases.patch("labelled", PatchType.MERGE, Map.of("metadata", Map.of("labels",
                Map.of("team", "platform", "ring", "two"))));
        ResourceLock.Observed seen = lock.get(LEASE).orElseThrow();
        lock.update(seen.record().writtenBy("a", LEASE, now.plusSeconds(1)), seen.version(), LEASE);
        assertThat(leases.get("labelled").getMetadata().getLabels())
                .containsOnly(Map.entry("ring", "one"), Map.entry("team", "platform"));

        // A lock that has not read this version writes the Lease from scratch: its own labels only.
        LeaseLock unread = LeaseLock.of(client, namespace.name(), "labelled", "b").withLabels(Map.of("ring", "one"));
        Lease current = leases.get("labelled");
        unread.update(LeaderElectionRecord.of(current.getSpec()).writtenBy("b", LEASE, now.plusSeconds(2)),
                current.getMetadata().getResourceVersion(), LEASE);
        Lease written = leases.get("labelled");
        assertThat(written.getMetadata().getLabels()).containsExactly(Map.entry("ring", "one"));
        assertThat(written.getSpec().getHolderIdentity()).isEqualTo("b");
        assertThat(written.getSpec().getLeaseTransitions()).isEqualTo(1);
    }
}

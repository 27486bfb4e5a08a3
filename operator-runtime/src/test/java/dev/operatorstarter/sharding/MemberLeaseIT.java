package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.ResourceLock;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A member's Lease on the real API server, as a member writes it and as the assigner takes and
 * deletes it: compare-and-swap on the version the assigner observed.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class MemberLeaseIT {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration DEADLINE = Duration.ofSeconds(5);
    private static final ShardLabels LABELS = new ShardLabels("ring", "replica-1");
    private static final String NAME = ShardLabels.leaseName("ring", "replica-1");
    private static KubernetesClient client;

    private final AtomicInteger taints = new AtomicInteger();

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    /** The member's lock, after it created its Lease (its first term). */
    private MemberLock joined(TestNamespace namespace) {
        MemberLock member = new MemberLock(MemberLock.leaseOf(client, namespace.name(), LABELS),
                taints::incrementAndGet);
        assertThat(member.get(DEADLINE)).isEmpty();
        member.create(LeaderElectionRecord.first("replica-1", LEASE, Instant.now()), DEADLINE);
        return member;
    }

    /** The member renews its Lease, as its elector would. */
    private static void renew(MemberLock member) {
        ResourceLock.Observed seen = member.get(DEADLINE).orElseThrow();
        member.update(seen.record().writtenBy("replica-1", LEASE, Instant.now()), seen.version(), DEADLINE);
    }

    private static ResourceClient<Lease> leases(TestNamespace namespace) {
        return client.coordinationV1().leases().inNamespace(namespace.name());
    }

    private static LeaseTake assigner(TestNamespace namespace) {
        return new LeaseTake(leases(namespace), "replica-0", LEASE, DEADLINE, TimeSource.system());
    }

    @Test
    void theAssignerTakesAnUnchangedLeaseKeepingItsLabelsAndTheMemberIsTainted(TestNamespace namespace) {
        MemberLock member = joined(namespace);
        Lease observed = leases(namespace).get(NAME);
        assertThat(observed.getMetadata().getLabels()).containsOnly(Map.entry(ShardLabels.RING_LABEL, "ring"),
                Map.entry(ShardLabels.SHARD_LABEL, "replica-1"));

        LeaseTake.Outcome outcome = assigner(namespace).take(observed);

        assertThat(outcome).isInstanceOf(LeaseTake.Outcome.Taken.class);
        Lease taken = leases(namespace).get(NAME);
        assertThat(((LeaseTake.Outcome.Taken) outcome).lease().getMetadata().getResourceVersion())
                .isEqualTo(taken.getMetadata().getResourceVersion());
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo("assigner:replica-0");
        assertThat(taken.getSpec().getLeaseTransitions()).isEqualTo(1);
        assertThat(taken.getMetadata().getLabels()).containsOnly(Map.entry(ShardLabels.RING_LABEL, "ring"),
                Map.entry(ShardLabels.SHARD_LABEL, "replica-1"), Map.entry(ShardLabels.STATE_LABEL, "dead"));
        assertThat(observed.getMetadata().getLabels()).as("the informer's copy is not changed").hasSize(2);

        ResourceLock.Observed seen = member.get(DEADLINE).orElseThrow();
        assertThat(taints).hasValue(1);
        assertThatThrownBy(() -> member.update(seen.record().writtenBy("replica-1", LEASE, Instant.now()),
                seen.version(), DEADLINE)).isInstanceOf(ShardingException.MemberTaken.class);
        assertThat(leases(namespace).get(NAME).getSpec().getHolderIdentity()).isEqualTo("assigner:replica-0");
    }

    @Test
    void aTakeAfterTheMemberRenewedFailsWithAConflictAndChangesNothing(TestNamespace namespace) {
        MemberLock member = joined(namespace);
        Lease observed = leases(namespace).get(NAME);
        renew(member);

        assertThat(assigner(namespace).take(observed)).isInstanceOf(LeaseTake.Outcome.Changed.class);

        Lease renewed = leases(namespace).get(NAME);
        assertThat(renewed.getSpec().getHolderIdentity()).isEqualTo("replica-1");
        assertThat(renewed.getSpec().getLeaseTransitions()).isZero();
        assertThat(renewed.getMetadata().getLabels()).doesNotContainKey(ShardLabels.STATE_LABEL);
        member.get(DEADLINE);
        assertThat(taints).as("the member renews on").hasValue(0);
    }

    @Test
    void anOrphanIsDeletedOnlyAtTheVersionObserved(TestNamespace namespace) {
        joined(namespace);
        Lease beforeTheTake = leases(namespace).get(NAME);
        LeaseTake assigner = assigner(namespace);
        Lease taken = ((LeaseTake.Outcome.Taken) assigner.take(beforeTheTake)).lease();

        assertThat(assigner.deleteOrphan(beforeTheTake)).as("a stale view deletes nothing")
                .isInstanceOf(LeaseTake.Outcome.Changed.class);
        assertThat(leases(namespace).find(NAME)).isPresent();

        assertThat(assigner.deleteOrphan(taken)).isInstanceOf(LeaseTake.Outcome.Deleted.class);
        assertThat(leases(namespace).find(NAME)).isEmpty();
        assertThat(assigner.deleteOrphan(taken)).as("gone already").isInstanceOf(LeaseTake.Outcome.Deleted.class);
        assertThat(assigner.take(taken)).as("nothing left to take").isInstanceOf(LeaseTake.Outcome.Changed.class);
    }

    @Test
    void theReadyLabelIsWrittenOnlyAtTheVersionObservedAndLeavesTheRecordAlone(TestNamespace namespace) {
        MemberLock member = joined(namespace);
        Lease observed = leases(namespace).get(NAME);
        renew(member);

        assertThat(assigner(namespace).markReady(observed)).as("the member renewed since")
                .isInstanceOf(LeaseTake.Outcome.Changed.class);

        Lease renewed = leases(namespace).get(NAME);
        LeaseTake.Outcome outcome = assigner(namespace).markReady(renewed);

        assertThat(outcome).isInstanceOf(LeaseTake.Outcome.Labelled.class);
        Lease labelled = leases(namespace).get(NAME);
        assertThat(labelled.getMetadata().getLabels()).containsEntry(ShardLabels.STATE_LABEL, "ready")
                .containsEntry(ShardLabels.SHARD_LABEL, "replica-1");
        assertThat(labelled.getSpec()).isEqualTo(renewed.getSpec());
        member.get(DEADLINE);
        assertThat(taints).as("a label is no taint").hasValue(0);
    }
}

package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The assigner's judgement of members ({@code docs/design/sharding.md}, "Decisions") on its fake
 * monotonic clock: from when a change of a member's record was delivered, never from the times in
 * the record.
 */
class MemberStatesTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration ORPHAN_TTL = Duration.ofMinutes(1);
    /** The fake's wall time is an hour later. */
    private static final Instant AN_HOUR_AGO = Instant.parse("2025-12-31T23:00:00Z");

    private final FakeTimeSource time = new FakeTimeSource();
    private final Members members = new Members("ring", LEASE);
    private int resourceVersion;

    /** The member Lease of {@code shardId} as the informer would deliver it, at a new resourceVersion. */
    private Lease lease(String shardId, String holder, Instant renewed, int transitions, Map<String, String> labels) {
        return new LeaseBuilder().withNewMetadata().withNamespace("ns").withName("ring-" + shardId)
                .withResourceVersion(Integer.toString(++resourceVersion))
                .addToLabels(ShardLabels.RING_LABEL, "ring").addToLabels(ShardLabels.SHARD_LABEL, shardId)
                .addToLabels(labels).endMetadata()
                .withSpec(new LeaderElectionRecord(holder, LEASE, AN_HOUR_AGO, renewed, transitions).toLeaseSpec())
                .build();
    }

    private Lease held(String shardId, Instant renewed) {
        return lease(shardId, shardId, renewed, 0, Map.of());
    }

    private void deliver(Lease lease) {
        members.observe(lease, time.nanoTime());
    }

    private MemberState state(String shardId) {
        return members.stateOf(shardId, time.nanoTime(), ORPHAN_TTL);
    }

    @ParameterizedTest(name = "held by \"{0}\", unchanged for {1} ms, take failed {2}: {3}")
    @CsvSource({
        "replica-1,          0,         false, READY",
        "replica-1,          14999,     false, READY",
        "replica-1,          15000,     false, EXPIRED",
        "replica-1,          3600000,   false, EXPIRED",
        "replica-1,          15000,     true,  UNCERTAIN",
        "'',                 0,         false, DEAD",
        "replica-2,          0,         false, DEAD",
        "assigner:replica-0, 59999,     false, DEAD",
        "assigner:replica-0, 60000,     false, ORPHANED",
        "'',                 60000,     false, ORPHANED",
    })
    void theJudgementOfOneObservation(String holder, long unchangedMillis, boolean takeFailed, MemberState expected) {
        Lease lease = lease("replica-1", holder, AN_HOUR_AGO, 1, Map.of());
        Members.Observation observed = new Members.Observation("replica-1", lease,
                LeaderElectionRecord.of(lease.getSpec()), 0, takeFailed);

        assertThat(MemberStates.judge(observed, Duration.ofMillis(unchangedMillis).toNanos(), ORPHAN_TTL))
                .isEqualTo(expected);
    }

    @Test
    void aReadyMemberExpiresExactlyALeaseDurationAfterItsRenewalWasDeliveredWhateverItsRenewTimeSays() {
        deliver(held("replica-1", AN_HOUR_AGO)); // a skewed clock on the member's node: irrelevant

        assertThat(state("replica-1")).isEqualTo(MemberState.READY);
        time.advance(LEASE.minusNanos(1));
        assertThat(state("replica-1")).isEqualTo(MemberState.READY);
        time.advance(Duration.ofNanos(1));
        assertThat(state("replica-1")).isEqualTo(MemberState.EXPIRED);
        assertThat(MemberState.EXPIRED.live()).isTrue();
        assertThat(MemberState.EXPIRED.inRing()).isFalse();
    }

    @Test
    void aRenewalRestartsTheClock() {
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(10));
        deliver(held("replica-1", AN_HOUR_AGO.plusSeconds(10)));
        time.advance(Duration.ofSeconds(10));

        assertThat(state("replica-1")).isEqualTo(MemberState.READY);
        time.advance(Duration.ofSeconds(5));
        assertThat(state("replica-1")).isEqualTo(MemberState.EXPIRED);
    }

    @Test
    void aChangeOfLabelsOrResourceVersionAloneDoesNotRestartTheClock() {
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(10));
        // The assigner's own state label, and a bare new version: the record is the same.
        deliver(lease("replica-1", "replica-1", AN_HOUR_AGO, 0, Map.of(ShardLabels.STATE_LABEL, "ready")));
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(5));

        assertThat(state("replica-1")).isEqualTo(MemberState.EXPIRED);
        assertThat(members.get("replica-1")).get().extracting(Members.Observation::resourceVersion)
                .as("the newest version is the one a take is conditional on").isEqualTo("3");
    }

    @Test
    void aReleasedOrTakenLeaseIsDeadAndOrphanedAfterTheTtlFromThatChange() {
        deliver(held("replica-1", AN_HOUR_AGO));
        deliver(held("replica-2", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(20));
        deliver(lease("replica-1", "", AN_HOUR_AGO, 0, Map.of())); // released by the member at close
        deliver(lease("replica-2", "assigner:replica-0", AN_HOUR_AGO, 1, Map.of(ShardLabels.STATE_LABEL, "dead")));

        assertThat(members.states(time.nanoTime(), ORPHAN_TTL))
                .containsExactly(Map.entry("replica-1", MemberState.DEAD), Map.entry("replica-2", MemberState.DEAD));
        assertThat(MemberState.DEAD.live()).isFalse();
        time.advance(ORPHAN_TTL.minusNanos(1));
        assertThat(state("replica-1")).isEqualTo(MemberState.DEAD);
        time.advance(Duration.ofNanos(1));
        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).containsExactly(
                Map.entry("replica-1", MemberState.ORPHANED), Map.entry("replica-2", MemberState.ORPHANED));
    }

    @Test
    void aNewAssignersClocksStartAtItsFirstSight() {
        time.advance(Duration.ofHours(1)); // the member renewed long ago, or the old assigner saw it long ago
        Members nextTerm = new Members("ring", LEASE);
        nextTerm.observe(held("replica-1", AN_HOUR_AGO), time.nanoTime());
        nextTerm.observe(lease("replica-2", "", AN_HOUR_AGO, 0, Map.of()), time.nanoTime());

        assertThat(nextTerm.stateOf("replica-1", time.nanoTime(), ORPHAN_TTL)).isEqualTo(MemberState.READY);
        assertThat(nextTerm.stateOf("replica-2", time.nanoTime(), ORPHAN_TTL)).isEqualTo(MemberState.DEAD);
        time.advance(LEASE);
        assertThat(nextTerm.stateOf("replica-1", time.nanoTime(), ORPHAN_TTL)).isEqualTo(MemberState.EXPIRED);
        assertThat(nextTerm.stateOf("replica-2", time.nanoTime(), ORPHAN_TTL)).isEqualTo(MemberState.DEAD);
    }

    @Test
    void aFailedTakeMakesTheMemberUncertainUntilItsRecordChanges() {
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(LEASE);
        String observed = members.get("replica-1").orElseThrow().resourceVersion();

        members.takeFailed("replica-1", "0"); // an older version's failure says nothing of this one
        assertThat(state("replica-1")).isEqualTo(MemberState.EXPIRED);
        members.takeFailed("replica-1", observed);
        assertThat(state("replica-1")).isEqualTo(MemberState.UNCERTAIN);
        assertThat(MemberState.UNCERTAIN.live()).isTrue();
        deliver(lease("replica-1", "replica-1", AN_HOUR_AGO, 0, Map.of(ShardLabels.STATE_LABEL, "ready")));
        assertThat(state("replica-1")).as("labels alone change nothing").isEqualTo(MemberState.UNCERTAIN);

        deliver(held("replica-1", AN_HOUR_AGO.plusSeconds(20))); // the member renewed after all

        assertThat(state("replica-1")).isEqualTo(MemberState.READY);
    }

    @Test
    void aMemberWhoseLeaseWasDeletedWhileItHeldItIsLiveForALeaseDurationAfterTheDeletionThenDead() {
        members.synced(time.nanoTime());
        time.advance(LEASE); // members never seen are dead by now
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(14)); // it may have renewed just before the deletion
        Lease lease = held("replica-1", AN_HOUR_AGO);
        members.forget(lease, time.nanoTime());

        assertThat(state("replica-1")).as("its term may still run").isEqualTo(MemberState.EXPIRED);
        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).containsExactly(Map.entry("replica-1",
                MemberState.EXPIRED));
        assertThat(members.observations()).as("nothing to take").isEmpty();
        assertThat(members.ready(time.nanoTime())).isEmpty();
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL)).isEqualTo(OptionalLong.of(time.nanoTime()
                + LEASE.toNanos()));
        time.advance(LEASE.minusNanos(1));
        assertThat(state("replica-1")).isEqualTo(MemberState.EXPIRED);
        time.advance(Duration.ofNanos(1));
        assertThat(state("replica-1")).isEqualTo(MemberState.DEAD);
        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).as("the tombstone is dropped once dead").isEmpty();
        assertThat(state("replica-1")).isEqualTo(MemberState.DEAD);
    }

    @Test
    void aLeaseDeletedAfterItWasReleasedOrTakenLeavesNoTombstone() {
        members.synced(time.nanoTime());
        time.advance(LEASE); // past the first lease duration: members never seen are dead
        Lease taken = lease("replica-2", "assigner:replica-0", AN_HOUR_AGO, 1, Map.of());
        deliver(taken);

        members.forget(taken, time.nanoTime()); // the assigner's own orphan clean-up

        assertThat(state("replica-2")).isEqualTo(MemberState.DEAD);
        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).isEmpty();
    }

    @Test
    void aShardThatNoLeaseNamesIsLiveForALeaseDurationAfterTheLeaseInformerSyncedThenDead() {
        assertThat(state("replica-9")).as("nothing judged before the sync").isEqualTo(MemberState.EXPIRED);
        time.advance(Duration.ofMinutes(5));
        members.synced(time.nanoTime()); // its Lease may have been deleted just before this term began
        long syncedAt = time.nanoTime();
        assertThat(members.unknownState(time.nanoTime())).isEqualTo(MemberState.EXPIRED);
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL)).isEqualTo(OptionalLong.of(syncedAt
                + LEASE.toNanos()));

        time.advance(LEASE.minusNanos(1));
        assertThat(state("replica-9")).isEqualTo(MemberState.EXPIRED);
        time.advance(Duration.ofNanos(1));
        assertThat(state("replica-9")).isEqualTo(MemberState.DEAD);
        members.synced(time.nanoTime()); // only the first sync counts
        assertThat(state("replica-9")).isEqualTo(MemberState.DEAD);
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL)).isEmpty();
    }

    @Test
    void aLeaseWhoseNameIsNotItsShardLabelsMemberLeaseIsNobodys() {
        members.synced(time.nanoTime());
        deliver(held("replica-1", AN_HOUR_AGO));
        // a second Lease posing as replica-1, and replica-1's own Lease relabelled as replica-2
        Lease impostor = new LeaseBuilder(held("replica-1", AN_HOUR_AGO.plusSeconds(1))).editMetadata()
                .withName("ring-replica-1-copy").endMetadata().build();
        Lease relabelled = new LeaseBuilder(held("replica-1", AN_HOUR_AGO)).editMetadata()
                .addToLabels(ShardLabels.SHARD_LABEL, "replica-2").endMetadata().build();

        assertThat(members.observe(impostor, time.nanoTime())).isEmpty();
        assertThat(members.get("replica-1")).get().extracting(observed -> observed.lease().getMetadata().getName())
                .isEqualTo("ring-replica-1");
        assertThat(members.observe(relabelled, time.nanoTime())).isEmpty();

        assertThat(members.observations()).isEmpty();
        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).as("replica-1's Lease counts as deleted")
                .containsExactly(Map.entry("replica-1", MemberState.EXPIRED));
        deliver(held("replica-1", AN_HOUR_AGO.plusSeconds(2))); // its member wrote its labels back
        assertThat(state("replica-1")).isEqualTo(MemberState.READY);
    }

    @Test
    void aLeaseWithoutTheShardLabelIsNoMembers() {
        Lease unlabelled = new LeaseBuilder(held("replica-1", AN_HOUR_AGO)).editMetadata()
                .removeFromLabels(ShardLabels.SHARD_LABEL).endMetadata().build();

        assertThat(members.observe(unlabelled, time.nanoTime())).isEmpty();

        assertThat(members.states(time.nanoTime(), ORPHAN_TTL)).isEmpty();
    }

    @Test
    void theRingIsTheReadyMembersAndTheNextJudgementIsDueAtTheFirstExpiryOrOrphaning() {
        deliver(held("replica-1", AN_HOUR_AGO));
        time.advance(Duration.ofSeconds(5));
        long renewedAt = time.nanoTime();
        deliver(held("replica-2", AN_HOUR_AGO));
        deliver(lease("replica-3", "", AN_HOUR_AGO, 0, Map.of()));

        assertThat(members.ready(time.nanoTime())).containsExactly("replica-1", "replica-2");
        long firstExpiry = renewedAt - Duration.ofSeconds(5).toNanos() + LEASE.toNanos();
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL)).isEqualTo(OptionalLong.of(firstExpiry));

        time.advance(Duration.ofSeconds(10)); // replica-1 expired
        assertThat(members.ready(time.nanoTime())).containsExactly("replica-2");
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL))
                .isEqualTo(OptionalLong.of(renewedAt + LEASE.toNanos()));

        time.advance(LEASE);
        assertThat(members.ready(time.nanoTime())).isEmpty();
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL))
                .as("only replica-3's orphaning is still to come")
                .isEqualTo(OptionalLong.of(renewedAt + ORPHAN_TTL.toNanos()));
        time.advance(ORPHAN_TTL);
        assertThat(members.nextChangeAt(time.nanoTime(), ORPHAN_TTL)).isEmpty();
    }

    @Test
    void theInformersDeliveriesFeedTheMembersAndAMembersStatusIsItsJudgementSinceTheLastChange() {
        AtomicInteger changes = new AtomicInteger();
        ResourceEventHandler<Lease> handler = members.handler(time, changes::incrementAndGet);
        Lease first = held("replica-1", AN_HOUR_AGO);
        handler.onAdd(first, true);
        time.advance(Duration.ofSeconds(3));
        handler.onUpdate(first, lease("replica-1", "replica-1", AN_HOUR_AGO, 0, Map.of("other", "label")));

        RingStatus.MemberStatus status = RingStatus.MemberStatus.of(members.get("replica-1").orElseThrow(),
                time.nanoTime(), ORPHAN_TTL, null);

        assertThat(changes).hasValue(2);
        assertThat(status).isEqualTo(new RingStatus.MemberStatus("replica-1", "ns/ring-replica-1", MemberState.READY,
                "replica-1", Duration.ofSeconds(3), null));
        time.advance(LEASE);
        assertThat(RingStatus.MemberStatus.of(members.get("replica-1").orElseThrow(), time.nanoTime(), ORPHAN_TTL, 4))
                .extracting(RingStatus.MemberStatus::state, RingStatus.MemberStatus::objects)
                .containsExactly(MemberState.EXPIRED, 4);

        handler.onDelete(first, false);
        assertThat(members.observations()).isEmpty();
        assertThat(changes).hasValue(3);
    }
}

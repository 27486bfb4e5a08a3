package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.sharding.MemberLoop.Attempt;
import dev.operatorstarter.sharding.MemberLoop.DeleteOrphan;
import dev.operatorstarter.sharding.MemberLoop.MarkReady;
import dev.operatorstarter.sharding.MemberLoop.Take;
import dev.operatorstarter.sharding.MemberLoop.View;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What the member loop writes to member Leases and when, decided from what it observed on its fake
 * clock; and when a new view of the ring makes the assigner look at every object again.
 */
class MemberLoopTest {

    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration ORPHAN_TTL = Duration.ofMinutes(1);
    private static final Duration RETRY = Duration.ofSeconds(2);

    private final FakeTimeSource time = new FakeTimeSource();
    private final Members members = new Members("ring", LEASE);
    private final Map<String, Attempt> attempts = new HashMap<>();
    private int resourceVersion;

    private Lease lease(String shardId, String holder, String stateLabel) {
        LeaseBuilder lease = new LeaseBuilder().withNewMetadata().withNamespace("ns").withName("ring-" + shardId)
                .withResourceVersion(Integer.toString(++resourceVersion)).addToLabels(ShardLabels.RING_LABEL, "ring")
                .addToLabels(ShardLabels.SHARD_LABEL, shardId).endMetadata()
                .withSpec(new LeaderElectionRecord(holder, LEASE, time.now(), time.now(), 0).toLeaseSpec());
        if (stateLabel != null) {
            lease.editMetadata().addToLabels(ShardLabels.STATE_LABEL, stateLabel).endMetadata();
        }
        return lease.build();
    }

    private List<MemberLoop.Chore> chores() {
        return MemberLoop.chores(members.observations(), time.nanoTime(), ORPHAN_TTL, RETRY, attempts);
    }

    /** Records {@code chore} as attempted now, on the version it was decided on. */
    private void attempted(MemberLoop.Chore chore, boolean failed) {
        attempts.put(MemberLoop.attemptKey(chore), new Attempt(chore.member().resourceVersion(), time.nanoTime(), failed));
    }

    @Test
    void aReadyMemberIsLabelledOnceAndALabelledOneNotAtAll() {
        members.observe(lease("a", "a", null), time.nanoTime());
        members.observe(lease("b", "b", "ready"), time.nanoTime());

        List<MemberLoop.Chore> due = chores();

        assertThat(due).containsExactly(new MarkReady(members.get("a").orElseThrow()));
        attempted(due.get(0), false);
        assertThat(chores()).as("not again on the same version").isEmpty();
    }

    @Test
    void anExpiredMemberIsTakenOnceAndATakeThatFailedIsTriedAgainEachRetryPeriod() {
        members.observe(lease("a", "a", "ready"), time.nanoTime());
        time.advance(LEASE.minusMillis(1));
        assertThat(chores()).isEmpty();
        time.advance(Duration.ofMillis(1));

        List<MemberLoop.Chore> due = chores();

        assertThat(due).containsExactly(new Take(members.get("a").orElseThrow()));
        attempted(due.get(0), false);
        assertThat(chores()).as("refused as stale: the informer brings the newer version").isEmpty();

        attempted(due.get(0), true);
        members.takeFailed("a", due.get(0).member().resourceVersion());
        assertThat(members.stateOf("a", time.nanoTime(), ORPHAN_TTL)).isEqualTo(MemberState.UNCERTAIN);
        time.advance(RETRY.minusMillis(1));
        assertThat(chores()).isEmpty();
        time.advance(Duration.ofMillis(1));
        assertThat(chores()).containsExactly(new Take(members.get("a").orElseThrow()));
    }

    @Test
    void aDeadMembersLeaseIsLeftAloneUntilItIsOrphanedThenDeleted() {
        members.observe(lease("a", "assigner:leader", "dead"), time.nanoTime());
        members.observe(lease("b", "", "ready"), time.nanoTime());
        time.advance(ORPHAN_TTL.minusMillis(1));
        assertThat(chores()).isEmpty();

        time.advance(Duration.ofMillis(1));

        assertThat(chores()).containsExactly(new DeleteOrphan(members.get("a").orElseThrow()),
                new DeleteOrphan(members.get("b").orElseThrow()));
    }

    @Test
    void aNewVersionOfALeaseMakesItsWriteDueAgain() {
        members.observe(lease("a", "a", null), time.nanoTime());
        attempted(chores().get(0), false); // refused: the member renewed meanwhile

        members.observe(lease("a", "a", null), time.nanoTime());

        assertThat(chores()).containsExactly(new MarkReady(members.get("a").orElseThrow()));
    }

    @Test
    void objectsMayMoveWhenTheRingsMembersChangeOrAMemberStopsBeingLive() {
        View first = view(Map.of("a", MemberState.READY, "b", MemberState.READY));

        assertThat(first.movesObjectsSince(null)).as("the first view").isTrue();
        assertThat(view(Map.of("a", MemberState.READY, "b", MemberState.READY)).movesObjectsSince(first)).isFalse();
        View expired = view(Map.of("a", MemberState.READY, "b", MemberState.EXPIRED));
        assertThat(expired.movesObjectsSince(first)).as("b left the ring").isTrue();
        View uncertain = view(Map.of("a", MemberState.READY, "b", MemberState.UNCERTAIN));
        assertThat(uncertain.movesObjectsSince(expired)).as("b's objects still wait for the take").isFalse();
        View dead = view(Map.of("a", MemberState.READY, "b", MemberState.DEAD));
        assertThat(dead.movesObjectsSince(uncertain)).as("b's objects may be forced away").isTrue();
        assertThat(view(Map.of("a", MemberState.READY, "b", MemberState.ORPHANED)).movesObjectsSince(dead)).isFalse();
        assertThat(view(Map.of("a", MemberState.READY)).movesObjectsSince(dead)).as("b's Lease deleted").isFalse();
        assertThat(dead.stateOf("c")).as("a member no Lease names, after the first lease duration").isEqualTo(
                MemberState.DEAD);
        View early = new View(HashRing.of(List.of("a"), 10), new TreeMap<>(Map.of("a", MemberState.READY)),
                MemberState.EXPIRED);
        assertThat(early.stateOf("c")).as("... within it").isEqualTo(MemberState.EXPIRED);
        assertThat(view(Map.of("a", MemberState.READY)).movesObjectsSince(early))
                .as("members never seen became DEAD: tokens naming them may be forced away").isTrue();
    }

    @Test
    void everyStateIsCountedZeroIncluded() {
        assertThat(MemberLoop.countByState(Map.of("a", MemberState.READY, "b", MemberState.READY, "c", MemberState.DEAD)))
                .isEqualTo(Map.of(MemberState.READY, 2, MemberState.EXPIRED, 0, MemberState.UNCERTAIN, 0,
                        MemberState.DEAD, 1, MemberState.ORPHANED, 0));
    }

    private static View view(Map<String, MemberState> states) {
        List<String> ready = states.entrySet().stream().filter(state -> state.getValue().inRing())
                .map(Map.Entry::getKey).toList();
        return new View(HashRing.of(ready, 10), new TreeMap<>(states), MemberState.DEAD);
    }
}

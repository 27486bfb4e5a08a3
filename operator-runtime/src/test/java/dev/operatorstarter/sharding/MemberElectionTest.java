package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.sharding.Membership.Phase;
import dev.operatorstarter.testing.FakeLeadership;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A member's campaign: the unchanged elector over a member lock, on fake time (lease 15 s, renew 10 s, retry 2 s). */
class MemberElectionTest {

    private static final String ME = "replica-1";

    private final FakeTimeSource time = new FakeTimeSource();
    private final InMemoryLeaseLock lease = new InMemoryLeaseLock(ME);
    private final List<String> shard = new CopyOnWriteArrayList<>();
    private final List<Leadership> terms = new CopyOnWriteArrayList<>();
    private final AtomicInteger tainted = new AtomicInteger();
    private final MemberElection member = MemberElection.create(lease, "ns/ring-" + ME, new LeaderCallbacks() {
        @Override
        public void onStartedLeading(Leadership leadership) {
            terms.add(leadership);
            shard.add("start");
        }

        @Override
        public void onStoppedLeading() {
            shard.add("stop");
        }
    }, tainted::incrementAndGet, config -> config.timeSource(time).name("member"));

    @AfterEach
    void close() {
        member.close();
    }

    /** Lets the elector's next wait on the fake clock end: the next attempt happens. */
    private void nextAttempt() {
        await().until(() -> time.hasWaiterWithin(Duration.ofMillis(2400))); // retry 2 s, jittered up to 1.2 times
        time.advance(Duration.ofMillis(2400));
    }

    @Test
    void aMemberJoinsAndItsControllersRunForTheTerm() {
        assertThat(member.phase()).isEqualTo(Phase.JOINING);
        assertThat(member.shardId()).isEqualTo(ME);
        assertThat(member.lease()).isEqualTo("ns/ring-" + ME);

        member.start();

        await().until(() -> member.phase() == Phase.MEMBER && shard.equals(List.of("start")));
        assertThat(member.term()).get().isSameAs(terms.get(0)).satisfies(term -> assertThat(term.isValid()).isTrue());
        assertThat(lease.record().holderIdentity()).isEqualTo(ME);
    }

    @Test
    void aMemberThatLostItsTermWithItsLeaseUntouchedIsAMemberAgain() {
        member.start();
        await().until(() -> member.phase() == Phase.MEMBER);
        lease.failWritesWith(MemberLockTest.failure("ServiceUnavailable", 503));
        await().until(() -> time.hasWaiterWithin(Duration.ofSeconds(2)));

        time.advance(Duration.ofSeconds(10)); // the renew deadline passes without a successful renewal
        // the phase moves before the shard's callback runs
        await().until(() -> member.phase() == Phase.LOST && shard.size() == 2);
        assertThat(member.term()).isEmpty();
        assertThat(terms.get(0).isValid()).isFalse();
        assertThat(shard).containsExactly("start", "stop");

        lease.failWritesWith(null);
        await().until(() -> {
            if (time.hasWaiterWithin(Duration.ofMillis(2400))) {
                time.advance(Duration.ofMillis(2400));
            }
            return member.phase() == Phase.MEMBER && shard.size() == 3; // the phase moves before the callback runs
        });

        assertThat(shard).containsExactly("start", "stop", "start");
        assertThat(member.term()).get().isSameAs(terms.get(1));
        assertThat(lease.record().leaderTransitions()).as("renewed, not taken again").isZero();
        assertThat(tainted).hasValue(0);
    }

    @Test
    void aTakenMemberEndsItsTermStopsCampaigningAndSaysSoOnce() {
        AtomicInteger reads = new AtomicInteger();
        member.start();
        await().until(() -> member.phase() == Phase.MEMBER);
        lease.put(lease.record().writtenBy("assigner:replica-0", Duration.ofSeconds(15), time.now()));
        lease.duringRead(reads::incrementAndGet);

        nextAttempt();

        await().until(() -> member.phase() == Phase.TAINTED && shard.equals(List.of("start", "stop")));
        assertThat(tainted).hasValue(1);
        assertThat(member.term()).isEmpty();
        assertThat(terms.get(0).isValid()).isFalse();
        int readsWhenTainted = reads.get();
        time.advance(Duration.ofMinutes(1)); // long past the take: a campaigning elector would try to take it back
        await().during(Duration.ofMillis(300)).until(() -> reads.get() == readsWhenTainted);
        assertThat(lease.record().holderIdentity()).isEqualTo("assigner:replica-0");

        member.close();
        assertThat(member.phase()).as("tainted stays tainted").isEqualTo(Phase.TAINTED);
        assertThat(lease.record().holderIdentity()).as("never released by the member").isEqualTo("assigner:replica-0");
    }

    @Test
    void aLeaseWithItsShardIdThatThisProcessNeverWroteIsWaitedOutThenTakenWithOneMoreTransition() {
        // an earlier process with the same shard id left it (or another one renews it)
        lease.put(LeaderElectionRecord.first(ME, Duration.ofSeconds(15), time.now().minusSeconds(3)));
        member.start();

        for (int i = 0; i < 6; i++) {
            nextAttempt(); // 14.4 s in all: less than the lease duration since it was first seen
        }
        assertThat(member.phase()).isEqualTo(Phase.JOINING);
        assertThat(shard).isEmpty();
        await().until(() -> {
            if (time.hasWaiterWithin(Duration.ofMillis(2400))) {
                time.advance(Duration.ofMillis(2400));
            }
            return member.phase() == Phase.MEMBER;
        });

        assertThat(lease.record().holderIdentity()).isEqualTo(ME);
        assertThat(lease.record().leaderTransitions()).as("taken, so the other process taints").isEqualTo(1);
        assertThat(tainted).hasValue(0);
    }

    @Test
    void closeEndsTheTermThenReleasesTheLease() {
        member.start();
        await().until(() -> member.phase() == Phase.MEMBER && shard.contains("start"));

        member.close();

        assertThat(member.phase()).isEqualTo(Phase.LEFT);
        assertThat(shard).containsExactly("start", "stop");
        assertThat(lease.record().isReleased()).isTrue();
        assertThat(tainted).as("its own release is no taint").hasValue(0);
    }

    @Test
    void abandonEndsTheTermAndLeavesTheLeaseToExpire() {
        member.start();
        await().until(() -> member.phase() == Phase.MEMBER && shard.contains("start"));

        member.abandon();

        assertThat(member.phase()).isEqualTo(Phase.LEFT);
        assertThat(shard).containsExactly("start", "stop");
        assertThat(lease.record().holderIdentity()).isEqualTo(ME);
    }

    @Test
    void aTermThatEndedBeforeItsStartingThreadRanStartsNothingAndMovesThePhaseNowhere() {
        List<String> calls = new CopyOnWriteArrayList<>();
        MemberElection.Campaign campaign = new MemberElection.Campaign(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                calls.add("start");
            }

            @Override
            public void onStoppedLeading() {
                calls.add("stop");
            }
        }, () -> { });
        FakeLeadership ended = new FakeLeadership();
        ended.end();
        campaign.onStoppedLeading(); // the elector ended the term before the thread that starts it ran
        FakeLeadership lapsed = new FakeLeadership();
        lapsed.setValid(false); // its renew deadline passed before that thread ran

        campaign.onStartedLeading(ended);
        campaign.onStartedLeading(lapsed);

        assertThat(campaign.phase.get()).isEqualTo(Phase.LOST);
        assertThat(campaign.term).isNull();
        assertThat(calls).isEmpty();

        FakeLeadership next = new FakeLeadership();
        campaign.onStartedLeading(next);
        assertThat(campaign.phase.get()).isEqualTo(Phase.MEMBER);
        campaign.onStoppedLeading(); // not the term that ends: still valid
        assertThat(campaign.term).as("only the term that ends is cleared").isSameAs(next);
        assertThat(campaign.phase.get()).isEqualTo(Phase.MEMBER);
        next.end();
        campaign.onStoppedLeading();
        assertThat(campaign.phase.get()).isEqualTo(Phase.LOST);
        assertThat(campaign.term).isNull();
        assertThat(calls).as("started and stopped in pairs").containsExactly("start", "stop");
    }

    @ParameterizedTest(name = "{0} then {1}: {2}")
    @CsvSource({
        "JOINING, MEMBER,  MEMBER",
        "MEMBER,  LOST,    LOST",
        "LOST,    MEMBER,  MEMBER",
        "MEMBER,  TAINTED, TAINTED",
        "TAINTED, MEMBER,  TAINTED",
        "TAINTED, LOST,    TAINTED",
        "TAINTED, LEFT,    TAINTED",
        "MEMBER,  LEFT,    LEFT",
        "LEFT,    MEMBER,  LEFT",
        "LEFT,    LOST,    LEFT",
        "LEFT,    TAINTED, TAINTED",
    })
    void taintedIsFinalAndLeftGivesWayOnlyToATaint(Phase current, Phase next, Phase after) {
        assertThat(MemberElection.after(current, next)).isEqualTo(after);
    }
}

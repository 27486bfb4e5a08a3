package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.ResourceLock.Observed;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The taint rules of a member's lock ({@code docs/design/sharding.md}, "Decisions"), driven as the
 * elector drives a lock: read, then create or update from what was read. The edge cases of
 * client-go's {@code TestTryAcquireOrRenew} (a Lease without a record, a released one, a renewal of
 * one's own) are here as what the member may or may not take for a taint.
 */
class MemberLockTest {

    private static final String ME = "replica-1";
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final FakeTimeSource time = new FakeTimeSource();
    private final InMemoryLeaseLock lease = new InMemoryLeaseLock(ME);
    private final AtomicInteger taints = new AtomicInteger();
    private final MemberLock member = new MemberLock(lease, taints::incrementAndGet);

    /** The member creates its Lease: its first successful write. */
    private void join() {
        assertThat(member.get(DEADLINE)).isEmpty();
        member.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE);
    }

    /** One renewal as the elector makes it: read, then write over what was read. */
    private void renew() {
        time.advance(Duration.ofSeconds(2));
        writeOver(member.get(DEADLINE).orElseThrow());
    }

    /** The member's write over {@code seen}: a renewal of its own record, a take of another's. */
    private void writeOver(Observed seen) {
        member.update(seen.record().writtenBy(ME, LEASE, time.now()), seen.version(), DEADLINE);
    }

    /** The record {@code holder} writes over the current one (a take when it is not the member). */
    private LeaderElectionRecord writtenBy(String holder) {
        return lease.record().writtenBy(holder, LEASE, time.now());
    }

    @ParameterizedTest(name = "held by \"{0}\"")
    @ValueSource(strings = {"assigner:replica-0", "replica-2", ""})
    void aLeaseTakenByAnotherHolderTaintsTheMemberForGood(String holder) {
        join();
        renew();
        LeaderElectionRecord before = lease.record();
        lease.put(holder.isEmpty() ? new LeaderElectionRecord("", Duration.ofSeconds(1), time.now(), time.now(),
                before.leaderTransitions()) : writtenBy(holder));

        assertThat(member.get(DEADLINE)).get().extracting(seen -> seen.record().holderIdentity()).isEqualTo(holder);
        assertThat(taints).hasValue(1);

        // Even the very record it held before, back in place, does not make it a member again.
        lease.put(before);
        Observed seen = member.get(DEADLINE).orElseThrow();
        assertThatThrownBy(() -> writeOver(seen))
                .isInstanceOf(ShardingException.MemberTaken.class)
                .hasMessageContaining("member " + ME + " is tainted")
                .satisfies(e -> assertThat(((ShardingException) e).shardId()).isEqualTo(ME));
        assertThat(taints).as("told once").hasValue(1);
    }

    @Test
    void aLeaseDeletedAfterTheFirstTermTaints() {
        join();
        renew();
        lease.delete();

        assertThat(member.get(DEADLINE)).isEmpty();

        assertThat(taints).hasValue(1);
        assertThatThrownBy(() -> member.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE))
                .isInstanceOf(ShardingException.MemberTaken.class).hasMessageContaining("its lease was deleted");
    }

    @Test
    void changedTransitionsTaintEvenWithTheHolderBack() {
        join();
        lease.put(writtenBy("assigner:replica-0"));
        lease.put(writtenBy(ME)); // given back, a transition later: the member did not see the take

        Observed seen = member.get(DEADLINE).orElseThrow();

        assertThat(seen.record().holderIdentity()).isEqualTo(ME);
        assertThat(taints).hasValue(1);
        assertThatThrownBy(() -> writeOver(seen))
                .isInstanceOf(ShardingException.MemberTaken.class)
                .hasMessageContaining("leaseTransitions 0 when it last wrote, 2 now");
    }

    @Test
    void anUntouchedLeaseIsRenewedAfterALostTerm() {
        join();
        renew();
        // The API server refuses every write for longer than the renew deadline: the term is lost,
        // while reads go on showing the member's own record, untouched.
        lease.failWritesWith(failure("ServiceUnavailable", 503));
        for (int i = 0; i < 8; i++) {
            assertThatThrownBy(this::renew).isInstanceOf(ApiException.class);
        }
        lease.failWritesWith(null);

        renew();

        assertThat(taints).hasValue(0);
        assertThat(lease.record().holderIdentity()).isEqualTo(ME);
        assertThat(lease.record().leaderTransitions()).isZero();
        assertThat(lease.record().renewTime()).isEqualTo(time.now());
    }

    @Test
    void aTaintedMemberNeverWritesAgain() {
        join();
        lease.put(writtenBy("assigner:replica-0"));
        Observed taken = member.get(DEADLINE).orElseThrow();
        // Had a write reached the Lease, it would fail with this instead of the member's refusal.
        lease.failWritesWith(new IllegalStateException("a tainted member's write reached the Lease"));

        for (int i = 0; i < 3; i++) {
            time.advance(LEASE); // long after the take: the elector would try to take the Lease back
            Observed seen = member.get(DEADLINE).orElseThrow();
            assertThatThrownBy(() -> writeOver(seen)).isInstanceOf(ShardingException.MemberTaken.class);
        }
        lease.delete();
        assertThatThrownBy(() -> member.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE))
                .isInstanceOf(ShardingException.MemberTaken.class);

        assertThat(taints).hasValue(1);
        assertThat(taken.record().holderIdentity()).isEqualTo("assigner:replica-0");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"no lease", "a lease without a record", "another holder", "released",
        "its id, left by an earlier process"})
    void beforeItsFirstWriteTheMemberTakesNothingForATaint(String found) {
        switch (found) {
            case "no lease" -> { }
            case "a lease without a record" -> lease.put(LeaderElectionRecord.of(null));
            case "another holder" -> lease.put(LeaderElectionRecord.first("replica-9", LEASE, time.now()));
            case "released" -> lease.put(new LeaderElectionRecord("", Duration.ofSeconds(1), null, null, 3));
            case "its id, left by an earlier process" -> lease.put(new LeaderElectionRecord(ME, LEASE, time.now(), time.now(), 5));
            default -> throw new IllegalArgumentException(found);
        }

        var seen = member.get(DEADLINE);

        assertThat(taints).hasValue(0);
        // The elector's to judge: it may create, or take or renew once the lease allows it.
        assertThatCode(() -> {
            if (seen.isEmpty()) {
                member.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE);
            } else {
                writeOver(seen.get());
            }
        }).doesNotThrowAnyException();
        renew();
        assertThat(taints).as("its first write sets what counts from then on").hasValue(0);
    }

    @Test
    void aLeaseNamingTheMemberThatThisProcessNeverWroteIsAnotherHoldersUntilTakenWithOneMoreTransition() {
        // left by an earlier process with the same shard id, or renewed by another one running now
        lease.put(new LeaderElectionRecord(ME, LEASE, time.now(), time.now(), 5));

        Observed seen = member.get(DEADLINE).orElseThrow();

        assertThat(seen.record().holderIdentity()).isEqualTo(ME + MemberLock.NOT_THIS_PROCESS);
        time.advance(LEASE);
        writeOver(seen); // as the elector does once that holder's lease ran out: a take
        assertThat(lease.record().holderIdentity()).isEqualTo(ME);
        assertThat(lease.record().leaderTransitions()).isEqualTo(6);
        assertThat(lease.record().acquireTime()).isEqualTo(time.now());
        renew();
        assertThat(taints).hasValue(0);
    }

    @Test
    void aRenewalThisProcessNeverSentTaintsTheMember() {
        join();
        renew();
        // another process with the same shard id renews over it: same holder, same transitions
        lease.put(lease.record().writtenBy(ME, LEASE, time.now().plusSeconds(1)));

        member.get(DEADLINE);

        assertThat(taints).hasValue(1);
        assertThatThrownBy(this::renew).isInstanceOf(ShardingException.MemberTaken.class)
                .hasMessageContaining("a renewal this process never sent")
                .hasMessageContaining("another process uses shard id " + ME);
    }

    @Test
    void aWriteWhoseAnswerWasLostIsTheMembersOwnWhenAReadShowsIt() {
        lease.loseAnswersWith(failure("Timeout", 504));
        assertThatThrownBy(() -> member.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE))
                .isInstanceOf(ApiException.class);

        Observed created = member.get(DEADLINE).orElseThrow();
        assertThat(created.record().holderIdentity()).as("its own, not another process's").isEqualTo(ME);
        time.advance(Duration.ofSeconds(2));
        assertThatThrownBy(() -> member.update(created.record().writtenBy(ME, LEASE, time.now()), created.version(),
                DEADLINE)).isInstanceOf(ApiException.class);
        member.get(DEADLINE);

        assertThat(taints).hasValue(0);
        assertThat(lease.record().renewTime()).isEqualTo(time.now());
    }

    @Test
    void aFailedWriteIsNotAFirstWrite() {
        lease.failWritesWith(failure("Forbidden", 403));
        assertThatThrownBy(this::join).isInstanceOf(ApiException.class);
        lease.failWritesWith(null);
        lease.put(LeaderElectionRecord.first("replica-9", LEASE, time.now()));

        member.get(DEADLINE);

        assertThat(taints).hasValue(0);
    }

    @Test
    void itsOwnReleaseIsNoTaint() {
        join();
        renew();
        Observed seen = member.get(DEADLINE).orElseThrow();
        member.update(new LeaderElectionRecord("", Duration.ofSeconds(1), time.now(), time.now(),
                seen.record().leaderTransitions()), seen.version(), DEADLINE);

        assertThat(member.get(DEADLINE)).get()
                .satisfies(released -> assertThat(released.record().isReleased()).isTrue());

        assertThat(taints).hasValue(0);
    }

    @Test
    void aRenewalThatLosesTheRaceToATakeIsRefusedAndTheNextReadTaints() {
        // A pause shorter than the assigner's judgement ends one way or the other: here the take won.
        join();
        time.advance(Duration.ofSeconds(2));
        Observed seen = member.get(DEADLINE).orElseThrow();
        lease.put(writtenBy("assigner:replica-0"));

        assertThatThrownBy(() -> writeOver(seen))
                .satisfies(e -> assertThat(ApiErrors.isConflict(e)).isTrue());
        assertThat(taints).as("a conflict alone proves nothing").hasValue(0);

        member.get(DEADLINE);
        assertThat(taints).hasValue(1);
        assertThat(lease.record().holderIdentity()).isEqualTo("assigner:replica-0");
    }

    @Test
    void aFailingTaintHookIsLoggedAndTheTaintStands() {
        MemberLock failing = new MemberLock(lease, () -> {
            throw new IllegalStateException("hook failed");
        });
        failing.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE);
        lease.delete();

        assertThatCode(() -> failing.get(DEADLINE)).doesNotThrowAnyException();

        assertThatThrownBy(() -> failing.create(LeaderElectionRecord.first(ME, LEASE, time.now()), DEADLINE))
                .isInstanceOf(ShardingException.MemberTaken.class);
    }

    /** The exception the API server's Status gives, as the client throws it. */
    static ApiException failure(String reason, int code) {
        return ApiException.fromStatus(new StatusBuilder().withReason(reason).withCode(code)
                .withMessage(reason.toLowerCase(java.util.Locale.ROOT)).build(), "PUT memory lock");
    }
}

package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The elector's acquire/renew decision on an in-memory lock and a fake monotonic clock. */
class LeaderElectorTest {

    /** A lock in memory, with compare-and-swap on a version counter. */
    static final class MemoryLock implements ResourceLock {
        private final String identity;
        private final MemoryLock shared;
        private Observed current;
        private int version;
        boolean failWrites;

        MemoryLock(String identity) {
            this.identity = identity;
            this.shared = this;
        }

        private MemoryLock(String identity, MemoryLock shared) {
            this.identity = identity;
            this.shared = shared;
        }

        MemoryLock as(String other) {
            return new MemoryLock(other, shared);
        }

        @Override
        public synchronized Optional<Observed> get() {
            return Optional.ofNullable(shared.current);
        }

        @Override
        public void create(LeaderElectionRecord record) {
            synchronized (shared) {
                if (shared.current != null || shared.failWrites) {
                    throw new IllegalStateException("exists");
                }
                shared.current = new Observed(record, Integer.toString(++shared.version));
            }
        }

        @Override
        public void update(LeaderElectionRecord record, String version) {
            synchronized (shared) {
                if (shared.failWrites || shared.current == null || !shared.current.version().equals(version)) {
                    throw new IllegalStateException("conflict");
                }
                shared.current = new Observed(record, Integer.toString(++shared.version));
            }
        }

        void put(LeaderElectionRecord record) {
            synchronized (shared) {
                shared.current = new Observed(record, Integer.toString(++shared.version));
            }
        }

        LeaderElectionRecord record() {
            return shared.current.record();
        }

        @Override
        public String identity() {
            return identity;
        }

        @Override
        public String describe() {
            return "memory lock";
        }
    }

    private final AtomicLong ticker = new AtomicLong();
    private final MemoryLock lock = new MemoryLock("me");
    private final List<String> leaders = new CopyOnWriteArrayList<>();

    private LeaderElector elector(ResourceLock resourceLock) {
        return new LeaderElector(LeaderElectionConfig.builder(resourceLock, new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
            }

            @Override
            public void onNewLeader(String identity) {
                leaders.add(identity);
            }
        }).clock(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC)).ticker(ticker::get).build());
    }

    private void advance(Duration duration) {
        ticker.addAndGet(duration.toNanos());
    }

    private static LeaderElectionRecord heldBy(String holder, Instant renewed) {
        return new LeaderElectionRecord(holder, Duration.ofSeconds(15), renewed, renewed, 3);
    }

    @Test
    void withNoLockTheCandidateCreatesItAndLeads() {
        LeaderElector elector = elector(lock);
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
        assertThat(lock.record().holderIdentity()).isEqualTo("me");
        assertThat(lock.record().leaderTransitions()).isZero();
        assertThat(leaders).containsExactly("me");
    }

    @Test
    void anotherHoldersLeaseIsRespectedForTheLeaseDurationFromWhenItWasSeenNotFromItsTimestamps() {
        // The record claims a renewal an hour ago (a skewed clock): irrelevant, only our observation counts.
        lock.put(heldBy("other", Instant.parse("2025-12-31T23:00:00Z")));
        LeaderElector elector = elector(lock);
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
        advance(Duration.ofSeconds(14));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
        advance(Duration.ofSeconds(1));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
        assertThat(lock.record().holderIdentity()).isEqualTo("me");
        assertThat(lock.record().leaderTransitions()).isEqualTo(4);
        assertThat(leaders).containsExactly("other", "me");
    }

    @Test
    void everyRenewalByTheHolderRestartsTheWait() {
        lock.put(heldBy("other", Instant.EPOCH));
        LeaderElector elector = elector(lock);
        for (int i = 0; i < 5; i++) {
            assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
            advance(Duration.ofSeconds(10));
            lock.put(heldBy("other", Instant.EPOCH.plusSeconds(i)));
        }
        assertThat(elector.tryAcquireOrRenew()).as("seen changing 0 s ago").isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
    }

    @Test
    void aReleasedLeaseIsTakenAtOnce() {
        lock.put(new LeaderElectionRecord("", Duration.ofSeconds(1), Instant.EPOCH, Instant.EPOCH, 7));
        assertThat(elector(lock).tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
        assertThat(lock.record().leaderTransitions()).isEqualTo(8);
    }

    @Test
    void theHolderRenewsKeepingItsAcquireTimeAndTransitions() {
        LeaderElector elector = elector(lock);
        elector.tryAcquireOrRenew();
        Instant acquired = lock.record().acquireTime();
        advance(Duration.ofSeconds(2));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
        assertThat(lock.record().acquireTime()).isEqualTo(acquired);
        assertThat(lock.record().leaderTransitions()).isZero();
    }

    @Test
    void aLostRaceOrAFailedWriteIsAFailureNotLeadership() {
        lock.put(heldBy("other", Instant.EPOCH));
        LeaderElector elector = elector(lock);
        elector.tryAcquireOrRenew();
        advance(Duration.ofSeconds(16));
        lock.failWrites = true;
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.FAILED);
        assertThat(lock.record().holderIdentity()).isEqualTo("other");
    }

    @Test
    void twoCandidatesNeverBothWinTheSameExpiredLease() {
        lock.put(heldBy("old", Instant.EPOCH));
        LeaderElector a = elector(lock.as("a"));
        LeaderElector b = elector(lock.as("b"));
        a.tryAcquireOrRenew();
        b.tryAcquireOrRenew();
        advance(Duration.ofSeconds(16));
        LeaderElector.Attempt first = a.tryAcquireOrRenew();
        LeaderElector.Attempt second = b.tryAcquireOrRenew();
        assertThat(List.of(first, second)).containsExactly(LeaderElector.Attempt.HELD,
                LeaderElector.Attempt.HELD_BY_OTHER);
        assertThat(lock.record().holderIdentity()).isEqualTo("a");
    }

    @Test
    void durationsAreValidatedTogether() {
        LeaderCallbacks callbacks = leadership -> { };
        assertThatThrownBy(() -> LeaderElectionConfig.builder(lock, callbacks).leaseDuration(Duration.ofSeconds(10))
                .renewDeadline(Duration.ofSeconds(10)).build()).hasMessageContaining("leaseDuration");
        assertThatThrownBy(() -> LeaderElectionConfig.builder(lock, callbacks).renewDeadline(Duration.ofSeconds(2))
                .retryPeriod(Duration.ofSeconds(2)).build()).hasMessageContaining("1.2 × retryPeriod");
        assertThatThrownBy(() -> LeaderElectionConfig.builder(new MemoryLock(" "), callbacks).build())
                .hasMessageContaining("identity");
        assertThatThrownBy(() -> LeaderElectionConfig.builder(lock, callbacks).retryPeriod(Duration.ZERO).build())
                .hasMessageContaining("retryPeriod must be positive");
    }
}

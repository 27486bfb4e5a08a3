package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The elector's acquire/renew decision on an in-memory lock and a fake time source. */
class LeaderElectorTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final InMemoryLeaseLock lock = new InMemoryLeaseLock("me");
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
        }).timeSource(time).build());
    }

    /** Callbacks that run {@code started} when a term starts and {@code stopped} when it ends. */
    private static LeaderCallbacks callbacks(Consumer<Leadership> started, Runnable stopped) {
        return new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                started.accept(leadership);
            }

            @Override
            public void onStoppedLeading() {
                stopped.run();
            }
        };
    }

    private void advance(Duration duration) {
        time.advance(duration);
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
    void aSlowReadDoesNotShortenAnotherHoldersLease() {
        lock.put(heldBy("other", Instant.EPOCH));
        LeaderElector elector = elector(lock);
        // The first read takes 6 s: the holder may have renewed just before it returned.
        lock.duringRead(() -> advance(Duration.ofSeconds(6)));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
        lock.duringRead(() -> { });

        advance(Duration.ofSeconds(14)); // 20 s after the read was sent, 14 s after it returned
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
        advance(Duration.ofSeconds(1));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
    }

    @Test
    void aHungRenewalEndsTheTermAtTheRenewDeadlineWhileTheRequestStillHangs() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        AtomicInteger hanging = new AtomicInteger();
        AtomicReference<Leadership> term = new AtomicReference<>();
        AtomicBoolean hungWhenStopped = new AtomicBoolean();
        AtomicBoolean validWhenStopped = new AtomicBoolean(true);
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(lock, new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                term.set(leadership);
                started.countDown();
            }

            @Override
            public void onStoppedLeading() {
                hungWhenStopped.set(hanging.get() > 0);
                validWhenStopped.set(term.get().isValid());
                stopped.countDown();
            }
        }).leaseDuration(Duration.ofMillis(1500)).renewDeadline(Duration.ofMillis(1000))
                .retryPeriod(Duration.ofMillis(200)).build());
        elector.start();
        try {
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            // From now on a read never answers, and ignores its deadline: only the elector can end the term.
            lock.duringRead(() -> {
                hanging.incrementAndGet();
                try {
                    unblock.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    hanging.decrementAndGet();
                }
            });

            assertThat(stopped.await(10, TimeUnit.SECONDS)).as("the term ended").isTrue();
            assertThat(hungWhenStopped).as("while the renewal still hung").isTrue();
            assertThat(validWhenStopped).isFalse();
            assertThat(elector.isLeader()).isFalse();
            assertThat(term.get().awaitEnd(Duration.ZERO)).isTrue();
        } finally {
            unblock.countDown();
            elector.close();
        }
    }

    @Test
    void aRunningElectorWaitsAndEndsItsTermOnItsTimeSource() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        lock.duringRead(reads::incrementAndGet);
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(lock,
                callbacks(leadership -> started.countDown(), stopped::countDown))
                .timeSource(time).build()); // renew deadline 10 s, retry period 2 s
        elector.start();
        try {
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            await().during(Duration.ofMillis(300)).until(() -> reads.get() == 1); // its time stands still
            await().until(() -> time.hasWaiterWithin(Duration.ofSeconds(2))); // the wait before the renewal

            Instant renewedBefore = lock.record().renewTime();
            time.advance(Duration.ofSeconds(2));
            await().until(() -> reads.get() == 2 && time.now().equals(lock.record().renewTime())); // renewed after the retry period
            assertThat(renewedBefore).isBefore(time.now());
            assertThat(elector.isLeader()).isTrue();

            lock.failWritesWith(failure("InternalError", 500));
            time.advance(Duration.ofSeconds(10));
            assertThat(stopped.await(10, TimeUnit.SECONDS)).as("the term ended at the renew deadline").isTrue();
            assertThat(elector.isLeader()).isFalse();
        } finally {
            elector.close();
        }
    }

    @Test
    void closeEndsTheTermFirstAndThenReleasesTheLease() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicReference<String> holderWhenStopped = new AtomicReference<>();
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(lock,
                callbacks(leadership -> started.countDown(),
                        () -> holderWhenStopped.set(lock.record().holderIdentity())))
                .leaseDuration(Duration.ofMillis(1500)).renewDeadline(Duration.ofMillis(1000))
                .retryPeriod(Duration.ofMillis(200)).build());
        elector.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        elector.close();

        assertThat(holderWhenStopped).hasValue("me");
        assertThat(lock.record().holderIdentity()).as("released").isEmpty();
    }

    @Test
    void abandonEndsTheTermAndStopsCampaigningButLeavesTheLeaseToExpire() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        AtomicInteger stopped = new AtomicInteger();
        AtomicInteger reads = new AtomicInteger();
        AtomicReference<Leadership> term = new AtomicReference<>();
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(lock, callbacks(leadership -> {
            term.set(leadership);
            started.countDown();
        }, stopped::incrementAndGet)).timeSource(time).build());
        elector.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        LeaderElectionRecord held = lock.record();
        lock.duringRead(reads::incrementAndGet);

        elector.abandon();

        assertThat(stopped).as("onStoppedLeading ran once").hasValue(1);
        assertThat(term.get().isValid()).isFalse();
        assertThat(elector.isLeader()).isFalse();
        assertThat(lock.record()).as("not released: others wait for it to expire").isEqualTo(held);
        assertThat(reads).as("not even read for a release").hasValue(0);
        time.advance(Duration.ofSeconds(30));
        elector.close(); // a close after abandon releases nothing either
        assertThat(lock.record()).isEqualTo(held);
        assertThat(reads).as("stopped campaigning").hasValue(0);
        assertThat(stopped).hasValue(1);
    }

    @Test
    void abandonWhileARenewalHangsWritesNothingAfterIt() throws Exception {
        // client-go's release-on-cancel cases, turned round: a request in flight is abandoned, and no release follows.
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch hanging = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        LeaderElector elector = new LeaderElector(LeaderElectionConfig.builder(lock,
                callbacks(leadership -> started.countDown(), stopped::countDown))
                .leaseDuration(Duration.ofMillis(1500)).renewDeadline(Duration.ofMillis(1000))
                .retryPeriod(Duration.ofMillis(200)).build());
        elector.start();
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        lock.duringRead(() -> {
            hanging.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(hanging.await(10, TimeUnit.SECONDS)).as("a renewal's read hangs").isTrue();
        int writesBefore = lock.writes();

        elector.abandon(); // interrupts the hung read, which then comes back

        // onStoppedLeading runs as the elector's thread ends, after what it did with that read
        assertThat(stopped.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.writes()).as("no renewal after the read that came back, no release").isEqualTo(writesBefore);
        assertThat(lock.record().holderIdentity()).isEqualTo("me");
        assertThat(elector.isLeader()).isFalse();
    }

    @Test
    void anotherCandidateWaitsTheLeaseDurationAsTheLockRecordsItRoundedUpToWholeSeconds() {
        LeaderElector holder = new LeaderElector(shortLease(lock.as("holder")).build()); // lease 1.5 s
        assertThat(holder.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
        assertThat(lock.record().leaseDuration()).isEqualTo(Duration.ofSeconds(2));
        LeaderElector candidate = new LeaderElector(shortLease(lock).build());
        assertThat(candidate.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);

        advance(Duration.ofMillis(1500)); // the holder's own lease duration: its record says 2 s
        assertThat(candidate.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD_BY_OTHER);
        advance(Duration.ofMillis(500));
        assertThat(candidate.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.HELD);
    }

    /** Lease 1.5 s, renew deadline 1 s, retry period 0.2 s, on the fake time source. */
    private LeaderElectionConfig.Builder shortLease(ResourceLock resourceLock) {
        return LeaderElectionConfig.builder(resourceLock, callbacks(leadership -> { }, () -> { })).timeSource(time)
                .leaseDuration(Duration.ofMillis(1500)).renewDeadline(Duration.ofMillis(1000))
                .retryPeriod(Duration.ofMillis(200));
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
        lock.failWritesWith(failure("InternalError", 500));
        assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.FAILED);
        assertThat(lock.record().holderIdentity()).isEqualTo("other");
    }

    @Test
    void aRefusedWriteIsAWarningWhileALostRaceIsNot() {
        Logger logger = (Logger) LoggerFactory.getLogger(LeaderElector.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        logger.addAppender(logged);
        try {
            LeaderElector elector = elector(lock);
            lock.failWritesWith(failure("AlreadyExists", 409)); // another candidate created it first
            assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.FAILED);
            assertThat(logged.list).noneMatch(event -> event.getLevel() == Level.WARN);

            lock.failWritesWith(failure("Forbidden", 403));
            assertThat(elector.tryAcquireOrRenew()).isEqualTo(LeaderElector.Attempt.FAILED);

            assertThat(logged.list).filteredOn(event -> event.getLevel() == Level.WARN)
                    .singleElement().satisfies(event -> assertThat(event.getFormattedMessage())
                            .contains("cannot create memory lock").contains("forbidden"));
        } finally {
            logger.detachAppender(logged);
        }
    }

    /** The exception the API server's Status gives, as the client throws it. */
    static ApiException failure(String reason, int code) {
        return ApiException.fromStatus(new StatusBuilder().withReason(reason).withCode(code)
                .withMessage(reason.toLowerCase(java.util.Locale.ROOT)).build(), "PUT memory lock");
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
        assertThatThrownBy(() -> LeaderElectionConfig.builder(new InMemoryLeaseLock(" "), callbacks).build())
                .hasMessageContaining("identity");
        assertThatThrownBy(() -> LeaderElectionConfig.builder(lock, callbacks).retryPeriod(Duration.ZERO).build())
                .hasMessageContaining("retryPeriod must be positive");
    }
}

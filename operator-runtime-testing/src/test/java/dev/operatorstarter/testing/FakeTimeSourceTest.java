package dev.operatorstarter.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The fake's time moves only when the test says so, and its waits end when the fake time passes them. */
class FakeTimeSourceTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private Thread waiter;

    @AfterEach
    void stopWaiter() throws InterruptedException {
        if (waiter != null) {
            waiter.interrupt();
            waiter.join(Duration.ofSeconds(10).toMillis());
        }
    }

    /** Runs {@code waiting} on a thread of its own; the thread ends when the wait returns. */
    private void startWaiter(Waiting waiting) {
        waiter = new Thread(() -> {
            try {
                waiting.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fake-time-waiter");
        waiter.start();
    }

    private interface Waiting {
        void run() throws InterruptedException;
    }

    @Test
    void startsAtOneSecondAndTheFirstOfJanuary2026AndStandsStill() {
        assertThat(time.nanoTime()).isEqualTo(Duration.ofSeconds(1).toNanos());
        assertThat(time.now()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
        assertThat(time.nanoTime()).isEqualTo(Duration.ofSeconds(1).toNanos());
    }

    @Test
    void advanceMovesMonotonicAndWallTimeTogether() {
        long start = time.nanoTime();
        Instant wall = time.now();

        time.advance(Duration.ofMinutes(5));

        assertThat(time.since(start)).isEqualTo(Duration.ofMinutes(5));
        assertThat(time.now()).isEqualTo(wall.plus(Duration.ofMinutes(5)));
    }

    @Test
    void timeOnlyMovesForward() {
        assertThatThrownBy(() -> time.advance(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("forward");
    }

    @Test
    void setWallStepsTheWallClockAloneForwardOrBack() {
        long start = time.nanoTime();

        time.setWall(Instant.parse("2025-06-01T12:00:00Z"));

        assertThat(time.now()).isEqualTo(Instant.parse("2025-06-01T12:00:00Z"));
        assertThat(time.nanoTime()).as("nothing that measures durations notices").isEqualTo(start);
        time.advance(Duration.ofSeconds(1));
        assertThat(time.now()).isEqualTo(Instant.parse("2025-06-01T12:00:01Z"));
    }

    @Test
    void sleepUntilAPassedDeadlineReturnsAtOnce() {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> time.sleepUntil(time.nanoTime()));
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> time.sleep(Duration.ZERO));
    }

    @Test
    void aThreadWaitingForAMomentAheadIsSeenUntilItsWaitEnds() {
        assertThat(time.hasWaiterWithin(Duration.ofDays(1))).as("nobody waits yet").isFalse();
        long deadline = time.deadlineAfter(Duration.ofSeconds(10));
        startWaiter(() -> time.sleepUntil(deadline));

        await().atMost(Duration.ofSeconds(5)).until(() -> time.hasWaiterWithin(Duration.ofSeconds(10)));
        assertThat(time.hasWaiterWithin(Duration.ofSeconds(9))).as("its moment is further ahead").isFalse();

        time.advance(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(5)).until(() -> !waiter.isAlive());
        assertThat(time.hasWaiterWithin(Duration.ofDays(1))).isFalse();
    }

    @Test
    void sleepUntilWakesOnceAnAdvancePassesItsDeadlineAndNotBefore() {
        long deadline = time.deadlineAfter(Duration.ofSeconds(10));
        startWaiter(() -> time.sleepUntil(deadline));

        time.advance(Duration.ofSeconds(9));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(waiter::isAlive);

        time.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> !waiter.isAlive());
    }

    @Test
    void aSleeperIsInterruptible() throws InterruptedException {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        waiter = new Thread(() -> {
            try {
                time.sleep(Duration.ofDays(1));
            } catch (InterruptedException e) {
                thrown.set(e);
            }
        });
        waiter.start();
        waiter.interrupt();
        waiter.join(Duration.ofSeconds(5).toMillis());
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    }

    @Test
    void awaitUntilReturnsAtOnceWhenTheDeadlineHasPassedAndSoonWhenItHasNot() {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            lock.lock();
            try {
                time.awaitUntil(condition, time.nanoTime());
                // An hour of fake time away: a spurious wake-up after real milliseconds, for the caller to re-check.
                time.awaitUntil(condition, time.deadlineAfter(Duration.ofHours(1)));
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void aLoopOnAwaitUntilEndsOnceAnAdvancePassesItsDeadlineAndNotBefore() {
        ReentrantLock lock = new ReentrantLock();
        Condition condition = lock.newCondition();
        long deadline = time.deadlineAfter(Duration.ofSeconds(10));
        startWaiter(() -> {
            lock.lock();
            try {
                while (time.nanosUntil(deadline) > 0) {
                    time.awaitUntil(condition, deadline);
                }
            } finally {
                lock.unlock();
            }
        });

        time.advance(Duration.ofSeconds(9));
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(waiter::isAlive);

        time.advance(Duration.ofSeconds(1));
        await().atMost(Duration.ofSeconds(5)).until(() -> !waiter.isAlive());
    }
}

package dev.operatorstarter.testing;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * A {@link TimeSource} whose time moves only when a test says so. Monotonic and wall time move
 * together on {@link #advance}; {@link #setWall} moves the wall clock alone (a clock step, which
 * nothing that measures durations may notice).
 *
 * <p>Waits end when the fake time reaches their deadline: {@link #sleepUntil} wakes at once on
 * {@link #advance}; {@link #awaitUntil} returns after at most a millisecond of real time while its
 * deadline is in the future (a spurious wake-up, which callers re-check), so a waiting queue
 * notices an advance at once without the fake knowing its conditions.
 *
 * <p>{@link #hasWaiterWithin} tells a test that a thread is waiting on this fake for a moment at
 * most so far ahead, so that a following {@link #advance} of that much is sure to end the wait:
 * advancing before the thread has computed its deadline would instead leave it waiting for a
 * moment that the test never reaches.
 *
 * <p>Starts at monotonic 1 s and wall {@code 2026-01-01T00:00:00Z}. Thread-safe.
 */
public final class FakeTimeSource implements TimeSource {

    private long nanos = TimeUnit.SECONDS.toNanos(1); // guarded by this
    private Instant wall = Instant.parse("2026-01-01T00:00:00Z"); // guarded by this
    /** The deadline each waiting thread waits for, while it waits. */
    private final Map<Thread, Long> waiters = new ConcurrentHashMap<>();

    /** Moves monotonic and wall time forward by {@code duration}, waking sleepers whose deadline passed. */
    public synchronized void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time only moves forward; advance was " + duration);
        }
        nanos += duration.toNanos();
        wall = wall.plus(duration);
        notifyAll();
    }

    /** Sets the wall clock alone, forward or back; monotonic time does not move. */
    public synchronized void setWall(Instant instant) {
        wall = Objects.requireNonNull(instant, "instant");
    }

    @Override
    public synchronized long nanoTime() {
        return nanos;
    }

    @Override
    public synchronized Instant now() {
        return wall;
    }

    /**
     * True while some thread waits on this fake (in {@link #awaitUntil} or {@link #sleepUntil}) for
     * a moment that is ahead of now by {@code ahead} at most.
     */
    public boolean hasWaiterWithin(Duration ahead) {
        long now = nanoTime();
        return waiters.values().stream().anyMatch(deadline -> deadline - now > 0 && deadline - now <= ahead.toNanos());
    }

    @Override
    public void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException {
        if (deadlineNanos - nanoTime() > 0) {
            Thread self = Thread.currentThread();
            waiters.put(self, deadlineNanos);
            try {
                condition.await(1, TimeUnit.MILLISECONDS);
            } finally {
                waiters.remove(self, deadlineNanos);
            }
        }
    }

    @Override
    public synchronized void sleepUntil(long deadlineNanos) throws InterruptedException {
        Thread self = Thread.currentThread();
        waiters.put(self, deadlineNanos);
        try {
            while (deadlineNanos - nanos > 0) {
                wait(10);
            }
        } finally {
            waiters.remove(self, deadlineNanos);
        }
    }
}

package dev.operatorstarter.workqueue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;

/**
 * A clock that moves only when the test says so. Waiting on it returns after a millisecond of real
 * time at most (a spurious wake-up the queue re-checks), so a worker notices an {@link #advance}
 * at once.
 */
final class FakeClock implements Clock {

    private final AtomicLong now = new AtomicLong(1_000_000_000L);

    void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    @Override
    public void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException {
        if (deadlineNanos - now.get() > 0) {
            condition.await(1, TimeUnit.MILLISECONDS);
        }
    }
}

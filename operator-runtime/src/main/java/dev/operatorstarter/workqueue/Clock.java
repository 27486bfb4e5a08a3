package dev.operatorstarter.workqueue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The time source of queues and rate limiters: a monotonic reading, and a way to wait for a
 * moment on it. Tests pass a fake clock whose time moves only when they say so; waiting on it
 * then ends when the fake time passes the deadline, not when real time does.
 */
public interface Clock {

    /** Monotonic nanoseconds; only differences mean anything. */
    long nanoTime();

    /**
     * Waits on {@code condition}, whose lock the caller holds, until it is signalled or this
     * clock reaches {@code deadlineNanos}. May return early (spuriously); callers re-check.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException;

    /** The system's monotonic clock ({@link System#nanoTime()}). */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /** {@link Clock} on {@link System#nanoTime()}. */
    enum SystemClock implements Clock {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException {
            long wait = deadlineNanos - System.nanoTime();
            if (wait > 0) {
                condition.await(wait, TimeUnit.NANOSECONDS);
            }
        }
    }
}

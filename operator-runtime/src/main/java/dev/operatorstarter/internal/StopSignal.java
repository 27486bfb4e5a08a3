package dev.operatorstarter.internal;

import dev.operatorstarter.time.TimeSource;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A flag that one thread raises to end another's timed wait at once (a reflector's backoff, an
 * elector's pause between attempts): the wait runs on a {@link TimeSource}, so a fake one drives
 * it, and {@link #raise()} wakes it without an interrupt. Thread-safe.
 */
public final class StopSignal {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition raised = lock.newCondition();
    private volatile boolean up;

    /** Raises the signal for good and wakes every waiter. */
    public void raise() {
        up = true;
        lock.lock();
        try {
            raised.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public boolean isRaised() {
        return up;
    }

    /**
     * Waits until {@code time} reaches {@code deadlineNanos} or the signal is raised.
     *
     * @return true when the deadline came and the signal is still down
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitUntil(long deadlineNanos, TimeSource time) throws InterruptedException {
        lock.lock();
        try {
            while (!up && time.nanosUntil(deadlineNanos) > 0) {
                time.awaitUntil(raised, deadlineNanos);
            }
            return !up;
        } finally {
            lock.unlock();
        }
    }
}

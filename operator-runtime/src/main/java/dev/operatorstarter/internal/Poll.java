package dev.operatorstarter.internal;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/** Waiting for a condition that nothing signals (an informer's sync), by checking it at an interval. */
public final class Poll {

    private Poll() {
    }

    /**
     * Checks {@code condition} every {@code interval} until it holds or {@code time} reaches
     * {@code deadlineNanos}, whichever comes first; checks once more at the deadline.
     *
     * @return whether the condition held
     * @throws InterruptedException if interrupted while waiting
     */
    public static boolean until(BooleanSupplier condition, long deadlineNanos, TimeSource time, Duration interval)
            throws InterruptedException {
        long step = Math.max(1, interval.toNanos());
        // Nothing signals the condition: a wait between two looks that the time source can end
        // (a fake one ends it early, so the condition is looked at even while fake time stands still).
        ReentrantLock pause = new ReentrantLock();
        Condition nextLook = pause.newCondition();
        while (!condition.getAsBoolean()) {
            long now = time.nanoTime();
            if (deadlineNanos - now <= 0) {
                return condition.getAsBoolean();
            }
            pause.lock();
            try {
                time.awaitUntil(nextLook, now + Math.min(step, deadlineNanos - now));
            } finally {
                pause.unlock();
            }
        }
        return true;
    }
}

package dev.operatorstarter;

import java.util.concurrent.CountDownLatch;

/**
 * Waiting as code that ignores interrupts does, for tests of what happens to work that does not
 * stop when told to (a reconcile a controller's stop, a term's end or a manager's shutdown gives
 * up on).
 */
public final class Uninterruptibly {

    private Uninterruptibly() {
    }

    /** Waits until {@code latch} opens, whatever interrupts arrive meanwhile; the interrupt flag is set again afterwards. */
    public static void await(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

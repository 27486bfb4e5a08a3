package dev.operatorstarter.controller;

import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The timeout of one reconcile: interrupts the worker when the reconcile outlives
 * {@link ControllerOptions#reconcileTimeout()}, and never leaks that interrupt into what the
 * worker does next.
 *
 * <p>Its state moves once, from {@link State#RUNNING} to {@link State#DONE} (the reconcile ended
 * first) or to {@link State#EXPIRED} (the timer fired first). The timer interrupts only in the
 * move to EXPIRED, under this object's monitor; {@link #disarm} takes the monitor too, so an
 * interrupt the timer decided on is delivered before disarm clears it, never after.
 */
final class ReconcileTimeout {

    enum State { RUNNING, DONE, EXPIRED }

    private final Thread worker;
    private State state = State.RUNNING; // guarded by this
    private @Nullable ScheduledFuture<?> task;

    ReconcileTimeout(Thread worker) {
        this.worker = worker;
    }

    /**
     * A timeout for the reconcile about to run on the calling thread, fired by {@code scheduler}
     * after {@code timeout}; with no scheduler (no timeout configured) it never fires.
     */
    static ReconcileTimeout arm(@Nullable ScheduledExecutorService scheduler, Duration timeout) {
        ReconcileTimeout armed = new ReconcileTimeout(Thread.currentThread());
        if (scheduler != null && !timeout.isZero()) {
            try {
                armed.task = scheduler.schedule(armed::expire, timeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the run stopped: this worker outlived its drain and is about to be interrupted
            }
        }
        return armed;
    }

    /** The timer fired: interrupts the worker if the reconcile still runs. */
    synchronized void expire() {
        if (state == State.RUNNING) {
            state = State.EXPIRED;
            worker.interrupt();
        }
    }

    synchronized State state() {
        return state;
    }

    /** True when the timer fired before the reconcile ended. */
    synchronized boolean expired() {
        return state == State.EXPIRED;
    }

    /**
     * Called on the worker when the reconcile ends: no interrupt comes after this returns, and
     * the timeout's own interrupt, if it fired, is cleared.
     */
    void disarm() {
        synchronized (this) {
            if (state == State.RUNNING) {
                state = State.DONE;
            } else if (state == State.EXPIRED && Thread.currentThread() == worker) {
                Thread.interrupted();
            }
        }
        if (task != null) {
            task.cancel(false);
        }
    }
}

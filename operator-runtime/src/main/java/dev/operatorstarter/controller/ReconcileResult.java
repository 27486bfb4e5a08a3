package dev.operatorstarter.controller;

import java.time.Duration;
import java.util.Objects;

/** How a reconcile ended (controller-runtime's {@code reconcile.ReconcileResult}). */
public sealed interface ReconcileResult {

    /** Reconciled: nothing more until the next change. */
    static ReconcileResult done() {
        return Done.INSTANCE;
    }

    /** Reconcile again after the rate limiter's backoff (as after an error, but not counted as one). */
    static ReconcileResult requeue() {
        return Requeue.INSTANCE;
    }

    /** Reconcile again after {@code delay} (for example to poll something outside Kubernetes). */
    static ReconcileResult requeueAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        return new RequeueAfter(delay);
    }

    /** See {@link #done()}. */
    enum Done implements ReconcileResult {
        INSTANCE
    }

    /** See {@link #requeue()}. */
    enum Requeue implements ReconcileResult {
        INSTANCE
    }

    /** See {@link #requeueAfter(Duration)}. */
    record RequeueAfter(Duration delay) implements ReconcileResult {
    }
}

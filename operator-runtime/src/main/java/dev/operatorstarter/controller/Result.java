package dev.operatorstarter.controller;

import java.time.Duration;
import java.util.Objects;

/** How a reconcile ended (controller-runtime's {@code reconcile.Result}). */
public sealed interface Result {

    /** Reconciled: nothing more until the next change. */
    static Result done() {
        return Done.INSTANCE;
    }

    /** Reconcile again after the rate limiter's backoff (as after an error, but not counted as one). */
    static Result requeue() {
        return Requeue.INSTANCE;
    }

    /** Reconcile again after {@code delay} (for example to poll something outside Kubernetes). */
    static Result requeueAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + delay);
        }
        return new RequeueAfter(delay);
    }

    /** See {@link #done()}. */
    enum Done implements Result {
        INSTANCE
    }

    /** See {@link #requeue()}. */
    enum Requeue implements Result {
        INSTANCE
    }

    /** See {@link #requeueAfter(Duration)}. */
    record RequeueAfter(Duration delay) implements Result {
    }
}

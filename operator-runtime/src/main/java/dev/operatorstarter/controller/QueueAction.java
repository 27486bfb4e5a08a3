package dev.operatorstarter.controller;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What a worker does with a request after its reconcile, decided by one pure function,
 * {@link #after}, from how the reconcile ended: the mapping controller-runtime's
 * {@code reconcileHandler} makes, table-tested without threads.
 *
 * @param step what happens to the request in the work queue
 * @param delay the delay of {@link Step#FORGET_AND_ADD_AFTER}; zero otherwise
 * @param result the {@code result} label of {@code controller_runtime_reconcile_total}
 * @param failure how the reconcile failed, for the error counters and the log
 */
record QueueAction(Step step, Duration delay, String result, Failure failure) {

    /** The work-queue calls for a request whose reconcile ended. */
    enum Step {
        /** {@code forget}: the request's retry history ends; it comes back only with a change. */
        FORGET,
        /** {@code forget}, then {@code addAfter(delay)}. */
        FORGET_AND_ADD_AFTER,
        /** {@code addRateLimited}: back after the rate limiter's backoff. */
        ADD_RATE_LIMITED
    }

    /** How a reconcile failed, which decides the counters it goes to. */
    enum Failure {
        /** It did not fail. */
        NONE,
        /** It threw an exception (or timed out): counted as an error, retried. */
        ERROR,
        /**
         * It threw a {@link TerminalException}, directly or anywhere in the thrown exception's cause
         * chain: counted as an error and as terminal, not retried.
         */
        TERMINAL,
        /** It threw an {@link Error}: counted as an error and as a panic, retried; the worker goes on. */
        PANIC
    }

    QueueAction {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(failure, "failure");
    }

    /**
     * The action after a reconcile that returned {@code result} or threw {@code thrown} (exactly
     * one of them is non-null; a reconcile that outlived its timeout is passed as having thrown a
     * {@link java.util.concurrent.TimeoutException}). A {@link TerminalException} anywhere in
     * {@code thrown}'s cause chain makes the failure terminal, as controller-runtime's
     * {@code errors.Is(err, reconcile.TerminalError(nil))} does: {@code CompletableFuture.join()}
     * wraps it in a {@code CompletionException}, {@code Future.get()} in an
     * {@code ExecutionException}, and user code in its own exceptions.
     */
    static QueueAction after(@Nullable ReconcileResult result, @Nullable Throwable thrown) {
        if (terminalIn(thrown) != null) {
            return new QueueAction(Step.FORGET, Duration.ZERO, "error", Failure.TERMINAL);
        }
        if (thrown instanceof Exception) {
            return new QueueAction(Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.ERROR);
        }
        if (thrown != null) {
            return new QueueAction(Step.ADD_RATE_LIMITED, Duration.ZERO, "error", Failure.PANIC);
        }
        Objects.requireNonNull(result, "a reconcile that threw nothing returns a result");
        if (result instanceof ReconcileResult.RequeueAfter after) {
            return new QueueAction(Step.FORGET_AND_ADD_AFTER, after.delay(), "requeue_after", Failure.NONE);
        }
        if (result instanceof ReconcileResult.Requeue) {
            return new QueueAction(Step.ADD_RATE_LIMITED, Duration.ZERO, "requeue", Failure.NONE);
        }
        return new QueueAction(Step.FORGET, Duration.ZERO, "success", Failure.NONE);
    }

    /**
     * The first {@link TerminalException} in {@code thrown}'s cause chain, {@code thrown} itself
     * included; {@code null} when there is none. A chain that loops back on itself ends at the
     * first exception seen twice.
     */
    static @Nullable TerminalException terminalIn(@Nullable Throwable thrown) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = thrown; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof TerminalException terminal) {
                return terminal;
            }
        }
        return null;
    }
}

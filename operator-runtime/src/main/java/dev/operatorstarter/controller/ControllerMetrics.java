package dev.operatorstarter.controller;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Receives what a controller does ({@link #micrometer} gives controller-runtime's
 * names). Must be fast, thread-safe, and must not throw.
 */
public interface ControllerMetrics {

    /** Records nothing. */
    ControllerMetrics NONE = new ControllerMetrics() {
    };

    /**
     * {@link ControllerMetrics} on Micrometer with controller-runtime's Prometheus names:
     * {@code controller_runtime_reconcile_total{controller,result}},
     * {@code controller_runtime_reconcile_errors_total}, {@code controller_runtime_terminal_reconcile_errors_total},
     * {@code controller_runtime_reconcile_panics_total}, {@code controller_runtime_reconcile_time_seconds},
     * {@code controller_runtime_max_concurrent_reconciles} and {@code controller_runtime_active_workers}
     * (label {@code controller}).
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static ControllerMetrics micrometer(MeterRegistry registry) {
        return new MicrometerControllerMetrics(registry);
    }

    /** The controller starts with {@code workers} workers. */
    default void started(String controller, int workers) {
    }

    /** The number of workers busy reconciling changed. */
    default void activeWorkers(String controller, int active) {
    }

    /**
     * A reconcile ended.
     *
     * @param result success, error, requeue or requeue_after
     */
    default void reconciled(String controller, String result, Duration duration) {
    }

    /**
     * A reconcile failed: an exception (retried), a {@link TerminalException} (also reported to
     * {@link #terminalError}), or an {@link Error} (also reported to {@link #panic}), as
     * controller-runtime counts {@code controller_runtime_reconcile_errors_total}.
     */
    default void error(String controller) {
    }

    /** A reconcile failed with a {@link TerminalException} (not retried). */
    default void terminalError(String controller) {
    }

    /** A reconcile threw an {@link Error} (the worker survived). */
    default void panic(String controller) {
    }
}

package dev.operatorstarter.controller;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link ControllerMetrics} on Micrometer with controller-runtime's Prometheus names:
 * {@code controller_runtime_reconcile_total{controller,result}},
 * {@code controller_runtime_reconcile_errors_total}, {@code controller_runtime_terminal_reconcile_errors_total},
 * {@code controller_runtime_reconcile_panics_total}, {@code controller_runtime_reconcile_time_seconds},
 * {@code controller_runtime_max_concurrent_reconciles} and {@code controller_runtime_active_workers}
 * (label {@code controller}). Needs micrometer-core.
 *
 * <p>The reconcile time is a histogram with controller-runtime's buckets ({@link #BUCKETS}, 5 ms
 * to 60 s), so {@code histogram_quantile} over {@code controller_runtime_reconcile_time_seconds_bucket}
 * works as on a controller-runtime operator. A {@code MeterFilter} may replace or remove them
 * (Spring Boot's {@code management.metrics.distribution.slo.controller.runtime.reconcile.time}
 * replaces them).
 */
final class MicrometerControllerMetrics implements ControllerMetrics {

    private static final String CONTROLLER = "controller";
    /** The values of the {@code result} label, as in controller-runtime. */
    private static final java.util.List<String> RESULTS = java.util.List.of("success", "error", "requeue", "requeue_after");

    /** controller-runtime's 40 boundaries for {@code controller_runtime_reconcile_time_seconds}, in seconds. */
    static final Duration[] BUCKETS = seconds(0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5,
            0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60);

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> maxWorkers = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> active = new ConcurrentHashMap<>();

    MicrometerControllerMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    private static Duration[] seconds(double... seconds) {
        Duration[] durations = new Duration[seconds.length];
        for (int i = 0; i < seconds.length; i++) {
            durations[i] = Duration.ofNanos(Math.round(seconds[i] * 1e9));
        }
        return durations;
    }

    private AtomicInteger gauge(Map<String, AtomicInteger> values, String name, String description, String controller) {
        return values.computeIfAbsent(controller, key -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(name, value, AtomicInteger::get).strongReference(true).description(description).tag(CONTROLLER, key)
                    .register(registry);
            return value;
        });
    }

    /**
     * Also registers the reconcile counter of every result and the error counters at zero, as
     * controller-runtime does, so rate() and ratios work from the start.
     */
    @Override
    public void started(String controller, int workers) {
        gauge(maxWorkers, "controller.runtime.max.concurrent.reconciles",
                "Maximum number of concurrent reconciles per controller.", controller).set(workers);
        gauge(active, "controller.runtime.active.workers", "Number of currently used workers per controller.",
                controller);
        for (String result : RESULTS) {
            reconciles(controller, result);
        }
        errors(controller);
        terminalErrors(controller);
        panics(controller);
    }

    @Override
    public void activeWorkers(String controller, int count) {
        gauge(active, "controller.runtime.active.workers", "Number of currently used workers per controller.",
                controller).set(count);
    }

    @Override
    public void reconciled(String controller, String result, Duration duration) {
        reconciles(controller, result).increment();
        Timer.builder("controller.runtime.reconcile.time").description("Length of time per reconciliation per controller.")
                .tag(CONTROLLER, controller).serviceLevelObjectives(BUCKETS).register(registry).record(duration);
    }

    @Override
    public void error(String controller) {
        errors(controller).increment();
    }

    @Override
    public void terminalError(String controller) {
        terminalErrors(controller).increment();
    }

    @Override
    public void panic(String controller) {
        panics(controller).increment();
    }

    private Counter reconciles(String controller, String result) {
        return Counter.builder("controller.runtime.reconcile").description("Total number of reconciliations per controller.")
                .tag(CONTROLLER, controller).tag("result", result).register(registry);
    }

    private Counter errors(String controller) {
        return counter("controller.runtime.reconcile.errors", "Total number of reconciliation errors per controller.",
                controller);
    }

    private Counter terminalErrors(String controller) {
        return counter("controller.runtime.terminal.reconcile.errors",
                "Total number of terminal reconciliation errors per controller.", controller);
    }

    private Counter panics(String controller) {
        return counter("controller.runtime.reconcile.panics", "Total number of reconciliation panics per controller.",
                controller);
    }

    private Counter counter(String name, String description, String controller) {
        return Counter.builder(name).description(description).tag(CONTROLLER, controller).register(registry);
    }
}

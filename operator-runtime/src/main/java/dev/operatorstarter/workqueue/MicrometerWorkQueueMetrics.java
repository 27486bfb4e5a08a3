package dev.operatorstarter.workqueue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * {@link WorkQueueMetrics} on Micrometer with controller-runtime's Prometheus names:
 * {@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
 * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds} and {@code workqueue_retries_total}, each
 * with labels {@code name} and {@code controller} (both the queue's name, as controller-runtime
 * sets them). Needs {@code micrometer-core} (optional).
 */
final class MicrometerWorkQueueMetrics implements WorkQueueMetrics {

    private final MeterRegistry registry;

    MicrometerWorkQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    private static Tags tags(String name) {
        return Tags.of("name", name, "controller", name);
    }

    /**
     * Binds the gauges to {@code stats}, replacing those of an earlier queue of the same name (a
     * controller makes a new queue each time it starts). The gauges hold {@code stats} strongly.
     */
    @Override
    public void bind(String name, QueueStats stats) {
        for (String gauge : new String[] {"workqueue.depth", "workqueue.unfinished.work",
                "workqueue.longest.running.processor"}) {
            registry.find(gauge).tags(tags(name)).meters().forEach(registry::remove);
        }
        Gauge.builder("workqueue.depth", stats, QueueStats::depth).strongReference(true).description("Current depth of the work queue.")
                .tags(tags(name)).register(registry);
        Gauge.builder("workqueue.unfinished.work", stats, s -> s.unfinishedWork().toNanos() / 1e9).strongReference(true)
                .baseUnit("seconds")
                .description("Seconds of work in progress not yet observed by work_duration; large values suggest"
                        + " stuck workers.").tags(tags(name)).register(registry);
        Gauge.builder("workqueue.longest.running.processor", stats, s -> s.longestRunning().toNanos() / 1e9)
                .strongReference(true).baseUnit("seconds").description("How long the longest running item has been in progress.")
                .tags(tags(name)).register(registry);
        adds(name);
        retries(name); // at zero from the start, as controller-runtime's
    }

    @Override
    public void added(String name) {
        adds(name).increment();
    }

    private Counter adds(String name) {
        return Counter.builder("workqueue.adds").description("Total number of adds handled by the work queue.")
                .tags(tags(name)).register(registry);
    }

    @Override
    public void taken(String name, Duration waited) {
        Timer.builder("workqueue.queue.duration").description("How long an item stays in the queue before it is taken.")
                .tags(tags(name)).register(registry).record(waited);
    }

    @Override
    public void finished(String name, Duration held) {
        Timer.builder("workqueue.work.duration").description("How long processing an item takes.")
                .tags(tags(name)).register(registry).record(held);
    }

    @Override
    public void retried(String name) {
        retries(name).increment();
    }

    private Counter retries(String name) {
        return Counter.builder("workqueue.retries").description("Total number of retries handled by the work queue.")
                .tags(tags(name)).register(registry);
    }
}

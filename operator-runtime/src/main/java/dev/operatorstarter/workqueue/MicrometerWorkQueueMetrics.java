package dev.operatorstarter.workqueue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/**
 * {@link WorkQueueMetrics} on Micrometer with controller-runtime's Prometheus names:
 * {@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
 * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds} and {@code workqueue_retries_total}, each
 * with labels {@code name} and {@code controller} (both the queue's name, as controller-runtime
 * sets them). Needs {@code micrometer-core} (optional).
 *
 * <p>Every meter of a queue is registered when the queue is bound and its series exist from then
 * on, at zero (as controller-runtime's do); the queue then records straight into them. The gauges
 * are read from the queue when scraped, never updated by it.
 */
final class MicrometerWorkQueueMetrics implements WorkQueueMetrics {

    private final MeterRegistry registry;

    MicrometerWorkQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One queue's meters. */
    private record Meters(Counter adds, Counter retries, Timer queueDuration, Timer workDuration) implements Recorder {

        @Override
        public void added() {
            adds.increment();
        }

        @Override
        public void taken(long waitedNanos) {
            queueDuration.record(waitedNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void finished(long heldNanos) {
            workDuration.record(heldNanos, TimeUnit.NANOSECONDS);
        }

        @Override
        public void retried() {
            retries.increment();
        }
    }

    /**
     * Binds the gauges to {@code stats}, replacing those of an earlier queue of the same name (a
     * controller makes a new queue each time it starts; its counters and timers carry on). The
     * gauges hold {@code stats} strongly.
     */
    @Override
    public Recorder bind(String name, QueueStats stats) {
        Tags tags = Tags.of("name", name, "controller", name);
        for (String gauge : new String[] {"workqueue.depth", "workqueue.unfinished.work",
                "workqueue.longest.running.processor"}) {
            registry.find(gauge).tags(tags).meters().forEach(registry::remove);
        }
        Gauge.builder("workqueue.depth", stats, QueueStats::depth).strongReference(true).description("Current depth of the work queue.")
                .tags(tags).register(registry);
        Gauge.builder("workqueue.unfinished.work", stats, s -> s.unfinishedWork().toNanos() / 1e9).strongReference(true)
                .baseUnit("seconds")
                .description("Seconds of work in progress not yet observed by work_duration; large values suggest"
                        + " stuck workers.").tags(tags).register(registry);
        Gauge.builder("workqueue.longest.running.processor", stats, s -> s.longestRunning().toNanos() / 1e9)
                .strongReference(true).baseUnit("seconds").description("How long the longest running item has been in progress.")
                .tags(tags).register(registry);
        return new Meters(
                Counter.builder("workqueue.adds").description("Total number of adds handled by the work queue.")
                        .tags(tags).register(registry),
                Counter.builder("workqueue.retries").description("Total number of retries handled by the work queue.")
                        .tags(tags).register(registry),
                Timer.builder("workqueue.queue.duration").description("How long an item stays in the queue before it is taken.")
                        .tags(tags).register(registry),
                Timer.builder("workqueue.work.duration").description("How long processing an item takes.")
                        .tags(tags).register(registry));
    }
}

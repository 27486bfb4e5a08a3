package dev.operatorstarter.workqueue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@link WorkQueueMetrics} on Micrometer with controller-runtime's Prometheus names:
 * {@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
 * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
 * {@code workqueue_longest_running_processor_seconds} and {@code workqueue_retries_total}, each
 * with labels {@code name} and {@code controller} (both the queue's name, as controller-runtime
 * sets them); {@code workqueue_depth} also has the label {@code priority}: a series for each of
 * {@link PriorityQueue#LOW} and {@link PriorityQueue#NORMAL} from the start, and one for any other
 * priority from the first item queued at it (controller-runtime's {@code priority} label, whose
 * values are the priorities as integers). Needs {@code micrometer-core} (optional).
 *
 * <p>The two durations are histograms with controller-runtime's buckets ({@link #BUCKETS}: 10 ns
 * to 1000 s, ten times apart), so {@code histogram_quantile} over their {@code _bucket} series
 * works as on a controller-runtime operator. A {@code MeterFilter} may replace or remove them
 * (Spring Boot's {@code management.metrics.distribution.slo.workqueue} replaces them).
 *
 * <p>Every meter of a queue is registered when the queue is bound and its series exist from then
 * on, at zero (as controller-runtime's do); the queue then records straight into them. The gauges
 * are read from the queue when scraped, never updated by it.
 */
final class MicrometerWorkQueueMetrics implements WorkQueueMetrics {

    /**
     * controller-runtime's boundaries for {@code workqueue_queue_duration_seconds} and
     * {@code workqueue_work_duration_seconds}: twelve, from 10 ns, each ten times the one before
     * (Prometheus' {@code ExponentialBuckets(10e-9, 10, 12)}).
     */
    static final Duration[] BUCKETS = buckets();

    private final MeterRegistry registry;

    private static Duration[] buckets() {
        Duration[] buckets = new Duration[12];
        long nanos = 10;
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = Duration.ofNanos(nanos);
            nanos *= 10;
        }
        return buckets;
    }

    MicrometerWorkQueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** One queue's meters. */
    private record Meters(Counter adds, Counter retries, Timer queueDuration, Timer workDuration, Depths depths)
            implements Recorder {

        @Override
        public void added() {
            adds.increment();
        }

        @Override
        public void added(int priority) {
            depths.register(priority);
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
        Depths depths = new Depths(registry, tags, stats);
        depths.register(PriorityQueue.LOW);
        depths.register(PriorityQueue.NORMAL);
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
                        .tags(tags).serviceLevelObjectives(BUCKETS).register(registry),
                Timer.builder("workqueue.work.duration").description("How long processing an item takes.")
                        .tags(tags).serviceLevelObjectives(BUCKETS).register(registry), depths);
    }

    /** A queue's {@code workqueue_depth} gauges, one per priority seen. */
    private static final class Depths {
        private final MeterRegistry registry;
        private final Tags tags;
        private final QueueStats stats;
        private final Set<Integer> registered = ConcurrentHashMap.newKeySet();

        Depths(MeterRegistry registry, Tags tags, QueueStats stats) {
            this.registry = registry;
            this.tags = tags;
            this.stats = stats;
        }

        void register(int priority) {
            if (registered.contains(priority) || !registered.add(priority)) {
                return;
            }
            Gauge.builder("workqueue.depth", stats, s -> s.depth(priority)).strongReference(true)
                    .description("Current depth of the work queue.").tags(tags)
                    .tag("priority", Integer.toString(priority)).register(registry);
        }
    }
}

package dev.operatorstarter.workqueue;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Receives what a queue does, for metrics (client-go's {@code MetricsProvider}, with
 * controller-runtime's names from {@link #micrometer}). Called under the queue's
 * lock: implementations must be fast and must not call back into the queue or throw.
 */
public interface WorkQueueMetrics {

    /** Records nothing. */
    WorkQueueMetrics NONE = new WorkQueueMetrics() {
    };

    /**
     * {@link WorkQueueMetrics} on Micrometer with controller-runtime's Prometheus names:
     * {@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
     * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
     * {@code workqueue_longest_running_processor_seconds} and {@code workqueue_retries_total}, each
     * with labels {@code name} and {@code controller} (both the queue's name, as controller-runtime
     * sets them).
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static WorkQueueMetrics micrometer(MeterRegistry registry) {
        return new MicrometerWorkQueueMetrics(registry);
    }

    /** The queue {@code name} exists; {@code stats} reads its depth and in-flight work on demand. */
    default void bind(String name, QueueStats stats) {
    }

    /** An item was queued (an add that was not collapsed into a waiting one). */
    default void added(String name) {
    }

    /** A worker took an item that had waited {@code waited} in the queue. */
    default void taken(String name, Duration waited) {
    }

    /** A worker finished an item it had held for {@code held}. */
    default void finished(String name, Duration held) {
    }

    /** An item was rate limited (a retry). */
    default void retried(String name) {
    }

    /** Live figures of one queue, read when a metric is scraped. */
    interface QueueStats {
        /** Items waiting to be handed out. */
        int depth();

        /** The sum of how long each item in progress has been in progress. */
        Duration unfinishedWork();

        /** How long the oldest item in progress has been in progress. */
        Duration longestRunning();
    }
}

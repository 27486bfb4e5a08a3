package dev.operatorstarter.workqueue;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Receives what a queue does, for metrics (client-go's {@code MetricsProvider}, with
 * controller-runtime's names from {@link #micrometer}). A queue calls {@link #bind} once, when it
 * is built, and from then on reports to the {@link Recorder} that {@code bind} returned.
 *
 * <p>Cost: a queue bound to {@link Recorder#NONE} (as every queue is with {@link #NONE}) reads no
 * clock and keeps no timestamps. Any other recorder gets the queue and work durations of every
 * item, at three clock readings per add → get → done.
 */
public interface WorkQueueMetrics {

    /** Records nothing; a queue with these metrics reads no clock for them. */
    WorkQueueMetrics NONE = new WorkQueueMetrics() {
    };

    /**
     * {@link WorkQueueMetrics} on Micrometer with controller-runtime's Prometheus names:
     * {@code workqueue_depth}, {@code workqueue_adds_total}, {@code workqueue_queue_duration_seconds},
     * {@code workqueue_work_duration_seconds}, {@code workqueue_unfinished_work_seconds},
     * {@code workqueue_longest_running_processor_seconds} and {@code workqueue_retries_total}, each
     * with labels {@code name} and {@code controller} (both the queue's name, as controller-runtime
     * sets them); {@code workqueue_depth} also has {@code priority}, one series per priority
     * items were queued at (as controller-runtime's priority queue exports it).
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static WorkQueueMetrics micrometer(MeterRegistry registry) {
        return new MicrometerWorkQueueMetrics(registry);
    }

    /**
     * The queue {@code name} was built: {@code stats} reads its depth and in-flight work on demand
     * (when a metric is scraped). Returns what the queue reports its adds, takes, dones and retries
     * to; {@link Recorder#NONE} (the default) tells the queue to record nothing and read no clock.
     */
    default Recorder bind(String name, QueueStats stats) {
        return Recorder.NONE;
    }

    /**
     * What one queue reports as it works. Called from every thread that uses the queue, sometimes
     * with the queue's lock held: implementations must be thread-safe and fast, must not call back
     * into the queue and must not throw. Durations are in nanoseconds (never negative), so that a
     * queue allocates nothing to report them.
     */
    interface Recorder {

        /** Records nothing; a queue bound to it reads no clock for metrics. */
        Recorder NONE = new Recorder() {
        };

        /** An item was queued (an add that was not collapsed into a waiting one). */
        default void added() {
        }

        /**
         * An item was queued at {@code priority} (see {@link PriorityQueue}); the queue calls this
         * one, which calls {@link #added()} unless overridden.
         */
        default void added(int priority) {
            added();
        }

        /** A worker took an item that had waited {@code waitedNanos} in the queue. */
        default void taken(long waitedNanos) {
        }

        /** A worker finished an item it had held for {@code heldNanos}. */
        default void finished(long heldNanos) {
        }

        /** An item was rate limited (a retry). */
        default void retried() {
        }
    }

    /** Live figures of one queue, read when a metric is scraped. */
    interface QueueStats {
        /** Items waiting to be handed out. */
        int depth();

        /**
         * Items waiting to be handed out at {@code priority} ({@link PriorityQueue}); by default
         * all of {@link #depth()} at {@link PriorityQueue#NORMAL}.
         */
        default int depth(int priority) {
            return priority == PriorityQueue.NORMAL ? depth() : 0;
        }

        /** The sum of how long each item in progress has been in progress (zero when the queue records nothing). */
        Duration unfinishedWork();

        /** How long the oldest item in progress has been in progress (zero when the queue records nothing). */
        Duration longestRunning();
    }
}

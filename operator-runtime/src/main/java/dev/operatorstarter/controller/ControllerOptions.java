package dev.operatorstarter.controller;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.PriorityQueue;
import dev.operatorstarter.workqueue.RateLimiter;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link Controller} runs. Build with {@link #builder(String)}.
 *
 * @param name names the controller in logs, metrics and its work queue; required
 * @param workers reconciles running at once (for different objects); default 1
 * @param rateLimiter paces retries; default {@link RateLimiter#defaultController} (5 ms doubling
 *     to 1000 s per object, 10/s burst 100 overall), never giving up
 * @param reconcileTimeout a reconcile running longer is interrupted and retried; zero (default) for none
 * @param cacheSyncTimeout how long {@link Controller#start()} waits for the informers to sync; default 2 minutes
 * @param readYourWritesTimeout how long a reconcile waits for the cache to show this controller's
 *     last write to the object before it runs anyway; default 10 s
 * @param timeSource every time the controller and its work queue judge; default {@link TimeSource#system()}
 * @param metrics controller metrics; default none
 * @param queueMetrics work-queue metrics; default none
 * @param observationRegistry where each reconcile is observed as {@code operator.reconcile}
 *     (keys: {@code controller}, {@code result}; high cardinality {@code namespace}, {@code name});
 *     default {@link ObservationRegistry#NOOP}, with which a reconcile makes no observation
 * @param threadFactory makes the workers; default daemon platform threads (pass a virtual-thread
 *     factory on Java 21+)
 * @param priorityQueue whether the work queue hands requests out by priority: the informers'
 *     initial lists and resyncs behind fresh changes, the request that has waited longest passed
 *     over at most 3 times in a row, so none starves ({@link PriorityQueue}); default true. False hands
 *     them out in FIFO order
 */
public record ControllerOptions(String name, int workers, RateLimiter<ReconcileRequest> rateLimiter, Duration reconcileTimeout,
        Duration cacheSyncTimeout, Duration readYourWritesTimeout, TimeSource timeSource, ControllerMetrics metrics,
        WorkQueueMetrics queueMetrics, ObservationRegistry observationRegistry, ThreadFactory threadFactory,
        boolean priorityQueue) {

    public ControllerOptions {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a controller needs a name");
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        Objects.requireNonNull(rateLimiter, "rateLimiter");
        Durations.requireNotNegative(reconcileTimeout, "reconcileTimeout");
        Durations.requireNotNegative(cacheSyncTimeout, "cacheSyncTimeout");
        Durations.requireNotNegative(readYourWritesTimeout, "readYourWritesTimeout");
        Objects.requireNonNull(timeSource, "timeSource");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(queueMetrics, "queueMetrics");
        Objects.requireNonNull(observationRegistry, "observationRegistry");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    /** Builds {@link ControllerOptions}; see the record for the defaults. */
    public static final class Builder {
        private final String name;
        private int workers = 1;
        private @Nullable RateLimiter<ReconcileRequest> rateLimiter;
        private Duration reconcileTimeout = Duration.ZERO;
        private Duration cacheSyncTimeout = Duration.ofMinutes(2);
        private Duration readYourWritesTimeout = Duration.ofSeconds(10);
        private TimeSource timeSource = TimeSource.system();
        private ControllerMetrics metrics = ControllerMetrics.NONE;
        private WorkQueueMetrics queueMetrics = WorkQueueMetrics.NONE;
        private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
        private @Nullable ThreadFactory threadFactory;
        private boolean priorityQueue = true;

        private Builder(String name) {
            this.name = name;
        }

        public Builder workers(int workers) {
            this.workers = workers;
            return this;
        }

        public Builder rateLimiter(RateLimiter<ReconcileRequest> rateLimiter) {
            this.rateLimiter = rateLimiter;
            return this;
        }

        public Builder reconcileTimeout(Duration reconcileTimeout) {
            this.reconcileTimeout = reconcileTimeout;
            return this;
        }

        public Builder cacheSyncTimeout(Duration cacheSyncTimeout) {
            this.cacheSyncTimeout = cacheSyncTimeout;
            return this;
        }

        public Builder readYourWritesTimeout(Duration readYourWritesTimeout) {
            this.readYourWritesTimeout = readYourWritesTimeout;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        public Builder metrics(ControllerMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder queueMetrics(WorkQueueMetrics queueMetrics) {
            this.queueMetrics = queueMetrics;
            return this;
        }

        public Builder observationRegistry(ObservationRegistry observationRegistry) {
            this.observationRegistry = observationRegistry;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        /** Whether the work queue hands requests out by priority (default) or in FIFO order. */
        public Builder priorityQueue(boolean priorityQueue) {
            this.priorityQueue = priorityQueue;
            return this;
        }

        public ControllerOptions build() {
            ThreadFactory threads = threadFactory != null ? threadFactory : DaemonThreads.unnamed();
            return new ControllerOptions(name, workers, rateLimiter != null ? rateLimiter
                    : RateLimiter.defaultController(timeSource), reconcileTimeout, cacheSyncTimeout, readYourWritesTimeout,
                    timeSource, metrics, queueMetrics, observationRegistry, threads, priorityQueue);
        }
    }
}

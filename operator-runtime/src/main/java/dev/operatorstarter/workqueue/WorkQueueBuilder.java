package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.util.Objects;

/**
 * Builds a work queue (one builder for every kind: the result is a {@link RateLimitingQueue},
 * usable as a {@link DelayingQueue} or plain {@link WorkQueue}). Defaults: name "workqueue",
 * the system clock, {@link RateLimiter#defaultController} on that clock, no metrics.
 */
public final class WorkQueueBuilder<T> {

    private String name = "workqueue";
    private TimeSource clock = TimeSource.system();
    private RateLimiter<T> rateLimiter;
    private WorkQueueMetrics metrics = WorkQueueMetrics.NONE;

    WorkQueueBuilder() {
    }

    /** Names the queue in metrics and logs (controller-runtime uses the controller's name). */
    public WorkQueueBuilder<T> name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    public WorkQueueBuilder<T> timeSource(TimeSource clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    public WorkQueueBuilder<T> rateLimiter(RateLimiter<T> rateLimiter) {
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
        return this;
    }

    /** Where the queue reports; {@link WorkQueueMetrics#NONE} (the default) records nothing and reads no clock for it. */
    public WorkQueueBuilder<T> metrics(WorkQueueMetrics metrics) {
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        return this;
    }

    /** The queue; its metrics are bound to its name now. */
    public RateLimitingQueue<T> build() {
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        RateLimiter<T> limiter = rateLimiter != null ? rateLimiter : RateLimiter.defaultController(clock);
        LockingQueue<T> queue = new LockingQueue<>(name, clock);
        queue.bind(metrics);
        return new RateLimitedQueue<>(queue, limiter);
    }
}

package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.util.Objects;

/**
 * Builds a work queue (one builder for every kind: the result is a {@link PriorityQueue}, usable
 * as a {@link RateLimitingQueue}, {@link DelayingQueue} or plain {@link WorkQueue}). Defaults:
 * name "workqueue", the system clock, {@link RateLimiter#defaultController} on that clock, no
 * metrics, items handed out by priority with the oldest item passed over at most 3 times in a row. A queue
 * whose items are all added at one priority hands them out in FIFO order either way.
 */
public final class WorkQueueBuilder<T> {

    private String name = "workqueue";
    private TimeSource clock = TimeSource.system();
    private RateLimiter<T> rateLimiter;
    private WorkQueueMetrics metrics = WorkQueueMetrics.NONE;
    private boolean prioritized = true;
    private int oldestEvery = 4;

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

    /**
     * Whether items are handed out by priority (true, the default) or in FIFO order, the order in
     * which they were queued, whatever their priority (the queue still keeps each item's priority
     * for requeues and {@code workqueue_depth}).
     */
    public WorkQueueBuilder<T> prioritized(boolean prioritized) {
        this.prioritized = prioritized;
        return this;
    }

    /**
     * With {@linkplain #prioritized priorities}: the item that has waited longest is passed over at
     * most {@code oldestEvery - 1} times in a row, whatever its priority, so that no item starves
     * (see {@link PriorityQueue} for the bound); default 4, so at least a quarter of the workers'
     * takes go to the oldest items while higher priorities keep arriving. 1 hands out in FIFO order.
     *
     * @throws IllegalArgumentException if less than 1
     */
    public WorkQueueBuilder<T> oldestEvery(int oldestEvery) {
        if (oldestEvery < 1) {
            throw new IllegalArgumentException("oldestEvery must be at least 1, was " + oldestEvery);
        }
        this.oldestEvery = oldestEvery;
        return this;
    }

    /** The queue; its metrics are bound to its name now. */
    public PriorityQueue<T> build() {
        if (name.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        RateLimiter<T> limiter = rateLimiter != null ? rateLimiter : RateLimiter.defaultController(clock);
        LockingQueue<T> queue = new LockingQueue<>(name, clock, prioritized, oldestEvery);
        queue.bind(metrics);
        return new RateLimitedQueue<>(queue, limiter);
    }
}

package dev.operatorstarter.workqueue;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The rate-limiting part of the work queue (client-go's {@code rate_limiting_queue.go}): an item
 * added rate-limited waits the delay its {@link RateLimiter} gives it, and counts as a retry;
 * the rest is the delaying (and prioritizing) queue it wraps.
 */
final class RateLimitedQueue<T> implements PriorityQueue<T> {

    private final LockingQueue<T> queue;
    private final RateLimiter<T> rateLimiter;

    RateLimitedQueue(LockingQueue<T> queue, RateLimiter<T> rateLimiter) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
    }

    @Override
    public void addRateLimited(T item) {
        Objects.requireNonNull(item, "item");
        queue.addRetry(item, rateLimiter.when(item));
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    @Override
    public void addAfter(T item, Duration delay) {
        queue.addAfter(item, delay);
    }

    @Override
    public void add(T item) {
        queue.add(item);
    }

    @Override
    public void add(T item, int priority) {
        queue.add(item, priority);
    }

    @Override
    public void addAfter(T item, Duration delay, int priority) {
        queue.addAfter(item, delay, priority);
    }

    @Override
    public int len() {
        return queue.len();
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        return queue.get();
    }

    @Override
    public void done(T item) {
        queue.done(item);
    }

    @Override
    public void shutDown() {
        queue.shutDown();
    }

    @Override
    public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
        return queue.shutDownWithDrain(timeout);
    }

    @Override
    public boolean isShuttingDown() {
        return queue.isShuttingDown();
    }

    @Override
    public String toString() {
        return queue.toString();
    }
}

package dev.operatorstarter.workqueue;

/**
 * A {@link DelayingQueue} whose retries are paced by a {@link RateLimiter} (client-go's
 * {@code RateLimitingInterface}): {@link #addRateLimited} after a failure, {@link #forget} after
 * a success so the next failure starts from the shortest delay again.
 */
public interface RateLimitingQueue<T> extends DelayingQueue<T> {

    /** Adds {@code item} after the delay the rate limiter gives it; counts a retry. */
    void addRateLimited(T item);

    /** Clears {@code item}'s retry history in the rate limiter (it does not remove the item). */
    void forget(T item);

    /** How many times {@code item} has been rate limited since it was last forgotten. */
    int numRequeues(T item);
}

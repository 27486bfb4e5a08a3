package dev.operatorstarter.workqueue;

import dev.operatorstarter.internal.Durations;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/** A short delay for the first attempts, a long one after; see {@link RateLimiter#fastSlow}. */
final class FastSlowRateLimiter<T> implements RateLimiter<T> {

    private final Duration fast;
    private final Duration slow;
    private final int maxFastAttempts;
    private final ConcurrentHashMap<T, Integer> attempts = new ConcurrentHashMap<>();

    FastSlowRateLimiter(Duration fast, Duration slow, int maxFastAttempts) {
        this.fast = Durations.requireNotNegative(fast, "fast");
        this.slow = Durations.requireNotNegative(slow, "slow");
        if (maxFastAttempts < 0) {
            throw new IllegalArgumentException("maxFastAttempts must be 0 or more, was " + maxFastAttempts);
        }
        this.maxFastAttempts = maxFastAttempts;
    }

    @Override
    public Duration when(T item) {
        int attempt = attempts.merge(item, 1, Integer::sum);
        return attempt <= maxFastAttempts ? fast : slow;
    }

    @Override
    public void forget(T item) {
        attempts.remove(item);
    }

    @Override
    public int numRequeues(T item) {
        return attempts.getOrDefault(item, 0);
    }
}

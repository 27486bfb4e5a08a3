package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.List;

/**
 * Decides how long an item waits before it is retried (client-go's {@code workqueue.RateLimiter}).
 * Implementations are thread-safe. The factories give client-go's limiters and defaults.
 */
public interface RateLimiter<T> {

    /** Records one more attempt of {@code item} and returns how long it should wait first. */
    Duration when(T item);

    /** Forgets {@code item}'s attempts (after it succeeded). */
    void forget(T item);

    /** How many times {@code item} has been rate limited since it was last forgotten. */
    int numRequeues(T item);

    /**
     * Per-item exponential backoff: {@code base · 2^attempts}, capped at {@code max}. The
     * controller default is 5 ms to 1000 s.
     */
    static <T> RateLimiter<T> exponential(Duration base, Duration max) {
        return new ExponentialRateLimiter<>(base, max);
    }

    /**
     * One token bucket for all items: {@code qps} tokens a second, up to {@code burst} saved.
     * Each call reserves a token, so delays grow as calls outpace the rate. Does not track items
     * ({@link #numRequeues} is 0). The controller default is 10 per second, burst 100.
     */
    static <T> RateLimiter<T> bucket(double qps, int burst, TimeSource clock) {
        return new BucketRateLimiter<>(qps, burst, clock);
    }

    /** The longest delay of all {@code limiters}; forgets in all of them. */
    @SafeVarargs
    static <T> RateLimiter<T> maxOf(RateLimiter<T>... limiters) {
        return new MaxOfRateLimiter<>(List.of(limiters));
    }

    /** {@code fast} for an item's first {@code maxFastAttempts} attempts, {@code slow} after. */
    static <T> RateLimiter<T> fastSlow(Duration fast, Duration slow, int maxFastAttempts) {
        return new FastSlowRateLimiter<>(fast, slow, maxFastAttempts);
    }

    /**
     * client-go's and controller-runtime's default for controllers: the longer of per-item
     * exponential backoff (5 ms to 1000 s) and an overall bucket of 10 per second with burst 100.
     */
    static <T> RateLimiter<T> defaultController(TimeSource clock) {
        return maxOf(exponential(Duration.ofMillis(5), Duration.ofSeconds(1000)), bucket(10, 100, clock));
    }
}

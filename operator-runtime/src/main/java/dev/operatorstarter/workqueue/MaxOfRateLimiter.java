package dev.operatorstarter.workqueue;

import java.time.Duration;
import java.util.List;

/** The longest delay of several limiters; see {@link RateLimiter#maxOf}. */
final class MaxOfRateLimiter<T> implements RateLimiter<T> {

    private final List<RateLimiter<T>> limiters;

    MaxOfRateLimiter(List<RateLimiter<T>> limiters) {
        if (limiters.isEmpty()) {
            throw new IllegalArgumentException("maxOf needs at least one limiter");
        }
        this.limiters = List.copyOf(limiters);
    }

    @Override
    public Duration when(T item) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<T> limiter : limiters) {
            Duration delay = limiter.when(item); // every limiter records the attempt
            if (delay.compareTo(longest) > 0) {
                longest = delay;
            }
        }
        return longest;
    }

    @Override
    public void forget(T item) {
        limiters.forEach(limiter -> limiter.forget(item));
    }

    @Override
    public int numRequeues(T item) {
        int most = 0;
        for (RateLimiter<T> limiter : limiters) {
            most = Math.max(most, limiter.numRequeues(item));
        }
        return most;
    }
}

package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;

/**
 * A token bucket with reservations (golang.org/x/time/rate's {@code Reserve}, as client-go uses
 * it): each call takes a token, going into debt when none is left; the delay is the time until
 * the debt is repaid.
 */
final class BucketRateLimiter<T> implements RateLimiter<T> {

    private final double tokensPerNano;
    private final int burst;
    private final TimeSource clock;
    private double tokens;
    private long lastNanos;

    BucketRateLimiter(double qps, int burst, TimeSource clock) {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException("qps must be positive and finite, was " + qps);
        }
        if (burst < 1) {
            throw new IllegalArgumentException("burst must be at least 1, was " + burst);
        }
        this.tokensPerNano = qps / 1e9;
        this.burst = burst;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.tokens = burst;
        this.lastNanos = clock.nanoTime();
    }

    @Override
    public synchronized Duration when(T item) {
        long now = clock.nanoTime();
        tokens = Math.min(burst, tokens + (now - lastNanos) * tokensPerNano);
        lastNanos = now;
        tokens -= 1;
        if (tokens >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(-tokens / tokensPerNano));
    }

    @Override
    public void forget(T item) {
        // one bucket for all items: nothing per item to forget
    }

    @Override
    public int numRequeues(T item) {
        return 0;
    }
}

package dev.operatorstarter.client.rest;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;

/**
 * A token bucket that hands out reservations: {@link #reserve()} takes a token now or, when the
 * bucket is empty, books the next one and says how long to wait for it. Callers wait without
 * blocking a thread (a delayed subscription), and nobody is ever refused.
 */
final class TokenBucket {

    private final double nanosPerToken;
    private final double burst;
    private final TimeSource time;
    private double tokens;
    private long last;

    /**
     * @param qps tokens added per second, above 0
     * @param burst the bucket size, at least 1; the bucket starts full
     * @param time the time source the bucket refills on
     */
    public TokenBucket(double qps, int burst, TimeSource time) {
        this.nanosPerToken = 1_000_000_000d / qps;
        this.burst = burst;
        this.time = time;
        this.tokens = burst;
        this.last = time.nanoTime();
    }

    /** Takes a token and returns how long to wait before using it (zero when one was available). */
    public synchronized Duration reserve() {
        long now = time.nanoTime();
        tokens = Math.min(burst, tokens + (now - last) / nanosPerToken);
        last = now;
        tokens -= 1;
        if (tokens >= 0) {
            return Duration.ZERO;
        }
        return Duration.ofNanos((long) Math.ceil(-tokens * nanosPerToken));
    }

    /** Gives back a token whose wait was abandoned, so the next caller does not wait for it. */
    public synchronized void refund() {
        tokens = Math.min(burst, tokens + 1);
    }
}

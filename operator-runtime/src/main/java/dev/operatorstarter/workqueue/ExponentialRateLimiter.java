package dev.operatorstarter.workqueue;

import dev.operatorstarter.internal.Durations;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/** Per-item exponential backoff; see {@link RateLimiter#exponential}. */
final class ExponentialRateLimiter<T> implements RateLimiter<T> {

    private final long baseNanos;
    private final long maxNanos;
    private final ConcurrentHashMap<T, Integer> failures = new ConcurrentHashMap<>();

    ExponentialRateLimiter(Duration base, Duration max) {
        Durations.requirePositive(base, "base");
        Objects.requireNonNull(max, "max");
        if (max.compareTo(base) < 0) {
            throw new IllegalArgumentException("max (" + max + ") must not be less than base (" + base + ")");
        }
        this.baseNanos = base.toNanos();
        this.maxNanos = max.toNanos();
    }

    @Override
    public Duration when(T item) {
        int attempts = failures.merge(item, 1, Integer::sum) - 1;
        // base · 2^attempts without overflow: stop doubling once past the cap.
        long delay = baseNanos;
        for (int i = 0; i < attempts && delay < maxNanos; i++) {
            delay = delay > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : delay * 2;
        }
        return Duration.ofNanos(Math.min(delay, maxNanos));
    }

    @Override
    public void forget(T item) {
        failures.remove(item);
    }

    @Override
    public int numRequeues(T item) {
        return failures.getOrDefault(item, 0);
    }
}

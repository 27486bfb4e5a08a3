package dev.operatorstarter.cache;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter that forgets its failures after a healthy period: the n-th
 * failure in a row waits a uniformly random time in (0, min(max, initial &middot; 2^(n-1))]; when
 * more than {@code resetAfter} has passed since the previous failure, the count starts over. The
 * reflector's defaults are client-go's: 800 ms doubling to 30 s, reset after 2 minutes.
 * Not thread-safe: one reflector thread uses it.
 */
public final class Backoff {

    private final Duration initial;
    private final Duration max;
    private final Duration resetAfter;
    private final Clock clock;
    private final DoubleSupplier random;
    private int failures;
    private long lastFailureMillis;

    /**
     * @param random values in [0, 1); the jitter
     */
    public Backoff(Duration initial, Duration max, Duration resetAfter, Clock clock, DoubleSupplier random) {
        this.initial = positive(initial, "initial");
        this.max = positive(max, "max");
        this.resetAfter = positive(resetAfter, "resetAfter");
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max (" + max + ") must not be less than initial (" + initial + ")");
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** Records a failure and returns how long to wait before the next attempt. */
    public Duration next() {
        long now = clock.millis();
        if (failures > 0 && now - lastFailureMillis > resetAfter.toMillis()) {
            failures = 0;
        }
        lastFailureMillis = now;
        long ceiling = initial.toNanos();
        for (int i = 0; i < failures && ceiling < max.toNanos(); i++) {
            ceiling *= 2;
        }
        ceiling = Math.min(ceiling, max.toNanos());
        failures++;
        // (0, ceiling]: never exactly zero, so a failing server is not hammered in a tight loop.
        long delay = Math.max(1, (long) Math.ceil((1.0 - random.getAsDouble()) * ceiling));
        return Duration.ofNanos(delay);
    }

    /** The failures counted so far (0 after a reset). */
    int failures() {
        return failures;
    }

    private static Duration positive(Duration value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
        return value;
    }
}

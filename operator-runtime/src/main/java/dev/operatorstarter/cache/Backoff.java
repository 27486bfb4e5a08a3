package dev.operatorstarter.cache;

import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * Exponential backoff with full jitter over a streak of failures of one kind: the n-th failure of
 * a streak waits a uniformly random time in (0, min(cap, initial &middot; 2^(n-1))]. Two kinds of
 * failure have their own cap:
 *
 * <ul>
 *   <li>{@link #next()}: the server answered with an error (5xx, 403, a short watch...); capped at
 *       {@code max}, client-go's 30 s, since each attempt costs the server work.</li>
 *   <li>{@link #nextUnreachable()}: the server could not be reached at all (connection refused,
 *       reset or timed out before any answer); capped at {@code unreachableMax} (never above
 *       {@code max}), since such attempts cost the server nothing and a short wait brings the
 *       caller back soon after the server answers again.</li>
 * </ul>
 *
 * <p>A failure of the other kind starts a new streak (a restarted server that first refuses
 * connections, then answers 403 while its authorizer warms up, is not made to wait for the
 * refusals' count); so does {@link #reset()} (a watch opened) and a pause of more than
 * {@code resetAfter} since the previous failure. {@link #next(Duration)} waits at least what the
 * server asked for (429 {@code Retry-After}) plus jitter. The reflector's defaults: 800 ms
 * doubling to 30 s, 1 s while unreachable, reset after 2 minutes.
 *
 * <p>Not thread-safe: one reflector thread uses it.
 */
final class Backoff {

    private enum Kind { ANSWERED, UNREACHABLE }

    private final Duration initial;
    private final Duration max;
    private final Duration unreachableMax;
    private final Duration resetAfter;
    private final TimeSource time;
    private final DoubleSupplier random;
    private int failures;
    private Kind streak = Kind.ANSWERED;
    private long lastFailureNanos;

    /**
     * @param unreachableMax the cap while the server cannot be reached; used as min(unreachableMax, max)
     * @param time its monotonic reading judges the pause since the previous failure
     * @param random values in [0, 1); the jitter
     */
    public Backoff(Duration initial, Duration max, Duration unreachableMax, Duration resetAfter, TimeSource time,
            DoubleSupplier random) {
        this.initial = Durations.requirePositive(initial, "initial");
        this.max = Durations.requirePositive(max, "max");
        this.unreachableMax = Durations.requirePositive(unreachableMax, "unreachableMax").compareTo(max) < 0 ? unreachableMax : max;
        this.resetAfter = Durations.requirePositive(resetAfter, "resetAfter");
        if (max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max (" + max + ") must not be less than initial (" + initial + ")");
        }
        this.time = Objects.requireNonNull(time, "time");
        this.random = Objects.requireNonNull(random, "random");
    }

    /** Records a failure the server answered and returns how long to wait before the next attempt. */
    public Duration next() {
        return next(Kind.ANSWERED, max);
    }

    /** Records a failure to reach the server at all and returns how long to wait before the next attempt. */
    public Duration nextUnreachable() {
        return next(Kind.UNREACHABLE, unreachableMax);
    }

    /**
     * Records a failure the server answered with a delay to wait ({@code Retry-After}): waits
     * that delay plus a jitter of up to {@link #next()}'s, so callers told the same delay do not
     * come back together.
     */
    public Duration next(Duration atLeast) {
        return atLeast.plus(next());
    }

    /** Forgets the failures: the next one starts a streak. */
    public void reset() {
        failures = 0;
    }

    /** The failures counted in the current streak (0 after a reset). */
    public int failures() {
        return failures;
    }

    private Duration next(Kind kind, Duration cap) {
        long now = time.nanoTime();
        if (kind != streak || failures > 0 && now - lastFailureNanos > resetAfter.toNanos()) {
            failures = 0;
        }
        streak = kind;
        lastFailureNanos = now;
        long ceiling = Math.min(initial.toNanos(), cap.toNanos());
        for (int i = 0; i < failures && ceiling < cap.toNanos(); i++) {
            ceiling *= 2;
        }
        ceiling = Math.min(ceiling, cap.toNanos());
        failures++;
        // (0, ceiling]: never exactly zero, so a failing server is not hammered in a tight loop.
        long delay = Math.max(1, (long) Math.ceil((1.0 - random.getAsDouble()) * ceiling));
        return Duration.ofNanos(delay);
    }
}

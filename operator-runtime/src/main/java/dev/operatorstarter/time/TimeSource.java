package dev.operatorstarter.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;

/**
 * The one source of time of the runtime: a monotonic reading for every duration a component
 * judges (delays, backoffs, deadlines, leases, timeouts), wall time for what is written to the
 * API server or compared with it (Lease renew times, Event timestamps, condition transitions,
 * credential expiry), and waiting until a monotonic deadline.
 *
 * <p>Components take it as an input ({@code options.timeSource()}); production code uses
 * {@link #system()}. Tests pass the fake of the {@code operator-runtime-testing} artifact
 * ({@code dev.operatorstarter.testing.FakeTimeSource}), whose time moves only when the test says
 * so: waits on it end when the fake time passes their deadline, not when real time does.
 *
 * <p>Implementations are thread-safe.
 */
public interface TimeSource {

    /** Monotonic nanoseconds; only differences mean anything. Never goes back. */
    long nanoTime();

    /** Wall time now. May jump (NTP, a changed clock); never use it to measure a duration. */
    Instant now();

    /**
     * Waits on {@code condition}, whose lock the caller holds, until it is signalled or this
     * source's {@link #nanoTime()} reaches {@code deadlineNanos}. May return early (spuriously):
     * callers re-check their state and the time.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException;

    /**
     * Returns once {@link #nanoTime()} has reached {@code deadlineNanos}; at once when it has already.
     *
     * @throws InterruptedException if interrupted while waiting (the flag is then clear, as usual)
     */
    void sleepUntil(long deadlineNanos) throws InterruptedException;

    /** {@link #sleepUntil} {@code duration} from now. */
    default void sleep(Duration duration) throws InterruptedException {
        sleepUntil(deadlineAfter(duration));
    }

    /** The monotonic deadline {@code duration} from now, saturating instead of overflowing. */
    default long deadlineAfter(Duration duration) {
        long now = nanoTime();
        long nanos = saturatedNanos(duration);
        long deadline = now + nanos;
        return nanos > 0 && deadline < now ? Long.MAX_VALUE : deadline;
    }

    /** Nanoseconds left until {@code deadlineNanos}: 0 once it has passed. */
    default long nanosUntil(long deadlineNanos) {
        return Math.max(0, deadlineNanos - nanoTime());
    }

    /** The time elapsed since the monotonic reading {@code startNanos}. */
    default Duration since(long startNanos) {
        return Duration.ofNanos(nanoTime() - startNanos);
    }

    /** The system's time: {@link System#nanoTime()} and {@link java.time.Clock#systemUTC()}. */
    static TimeSource system() {
        return SystemTimeSource.INSTANCE;
    }

    /** {@code duration} in nanoseconds, {@link Long#MAX_VALUE} when it does not fit. */
    static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException e) {
            return duration.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    /** The system's clocks. */
    enum SystemTimeSource implements TimeSource {
        INSTANCE;

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public Instant now() {
            return Instant.now();
        }

        @Override
        public void awaitUntil(Condition condition, long deadlineNanos) throws InterruptedException {
            long wait = deadlineNanos - System.nanoTime();
            if (wait > 0) {
                condition.await(wait, TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public void sleepUntil(long deadlineNanos) throws InterruptedException {
            long wait;
            while ((wait = deadlineNanos - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.sleep(wait);
            }
        }
    }
}

package dev.operatorstarter.test.internal;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Polls a condition until it holds or a deadline passes. The harness never sleeps for a fixed
 * time; it waits for what it needs. Not API.
 */
public final class Await {

    private Await() {
    }

    /**
     * Calls {@code probe} every {@code interval} until it returns a value, and returns that value.
     *
     * <p>A probe that throws is tried again (the server may not be up yet) and its last failure is
     * attached to the timeout, except that an {@link Abort} thrown by the probe ends the wait at
     * once, as does an interrupt of the waiting thread.
     *
     * @throws TimedOut after {@code timeout}, naming {@code what} was awaited
     * @throws IllegalStateException when the waiting thread is interrupted (its flag stays set)
     * @throws Abort when the probe decides that waiting longer is pointless
     */
    public static <T> T until(String what, Duration timeout, Duration interval, Supplier<Optional<T>> probe) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException lastFailure = null;
        while (true) {
            try {
                Optional<T> value = probe.get();
                if (value.isPresent()) {
                    return value.get();
                }
            } catch (Abort e) {
                throw e;
            } catch (RuntimeException e) {
                lastFailure = e;
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("interrupted while waiting for " + what, lastFailure);
            }
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                throw new TimedOut("timed out after " + timeout.toSeconds() + "s waiting for " + what
                        + (lastFailure == null ? "" : "; last attempt failed with: " + lastFailure.getMessage()),
                        lastFailure);
            }
            try {
                TimeUnit.NANOSECONDS.sleep(Math.min(remaining, interval.toNanos()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
        }
    }

    /** {@link #until} for a yes/no condition. */
    public static void condition(String what, Duration timeout, Duration interval, Supplier<Boolean> condition) {
        until(what, timeout, interval, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }

    /** The deadline passed before the probe returned a value; the cause is the probe's last failure, if any. */
    public static final class TimedOut extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        TimedOut(String message, @Nullable Throwable cause) {
            super(message, cause);
        }
    }

    /** Thrown by a probe to stop waiting: what it waits for can no longer happen. */
    public static final class Abort extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Abort(String message) {
            super(message);
        }
    }
}

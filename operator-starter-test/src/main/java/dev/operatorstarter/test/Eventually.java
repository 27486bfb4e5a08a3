package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.Await;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Waits in a test for an outcome that arrives on its own time, such as a reconciler's write, by
 * polling instead of sleeping. It knows no Kubernetes type, so probes may use any client.
 *
 * <pre>{@code
 * Widget ready = Eventually.await("widget w1 to be Ready", Duration.ofSeconds(30),
 *         () -> widgets.get("w1"), widget -> widget.getStatus() != null && widget.getStatus().isReady());
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The probe runs on the calling thread, at once and then every 50 ms, never
 *       twice at the same time; the wait ends with the first value that satisfies the condition.
 *   <li>A probe (or condition) that throws a {@link RuntimeException} or an {@link AssertionError}
 *       means "not yet": the object may not exist yet, or the probe may assert on it. The last such
 *       failure is kept for the timeout's message and cause.
 *   <li>On timeout an {@link AssertionError} says what was awaited, for how long, the last value
 *       seen (its {@code toString}) and the last failure, so a failing test explains itself.
 * </ul>
 *
 * <h2>Caveats</h2>
 * <ul>
 *   <li>The deadline is checked between probes: a probe that blocks (a slow HTTP call) can make the
 *       wait outlast {@code timeout} by that probe's duration. Give clients a timeout of their own.
 *   <li>An interrupt of the waiting thread ends the wait with an {@link IllegalStateException} and
 *       leaves the thread's interrupt flag set. Other {@link Error}s from the probe end it at once.
 * </ul>
 */
public final class Eventually {

    private static final Duration POLL = Duration.ofMillis(50);

    private Eventually() {
    }

    /**
     * Calls {@code probe} until its value satisfies {@code done}, and returns that value.
     *
     * @param <T> the probe's value
     * @param what what is awaited, completing "waiting for ...", for example {@code "widget w1 to be Ready"}
     * @param timeout how long to wait at most; zero probes once
     * @param probe reads the current state; may return {@code null}, which {@code done} then judges
     * @param done whether a value is the awaited outcome
     * @return the first value that satisfied {@code done}
     * @throws AssertionError when {@code timeout} passes first
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    public static <T extends @Nullable Object> T await(String what, Duration timeout, Supplier<T> probe,
            Predicate<? super T> done) {
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(probe, "probe");
        Objects.requireNonNull(done, "done");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
        }
        Observations<T> observations = new Observations<>();
        try {
            return Await.until(what, timeout, POLL, () -> observations.probe(probe, done)).value();
        } catch (Await.TimedOut e) {
            throw observations.timedOut(what, timeout);
        }
    }

    /**
     * Waits until {@code condition} holds.
     *
     * @param what what is awaited, completing "waiting for ...", for example {@code "the finalizer to be removed"}
     * @param timeout how long to wait at most; zero checks once
     * @param condition whether the awaited outcome has happened
     * @throws AssertionError when {@code timeout} passes first
     * @throws IllegalArgumentException when {@code timeout} is negative
     */
    public static void await(String what, Duration timeout, BooleanSupplier condition) {
        Objects.requireNonNull(condition, "condition");
        await(what, timeout, condition::getAsBoolean, Boolean::booleanValue);
    }

    /** {@code 5s}, {@code 1500ms}: how a test author would write the timeout. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** The last value and the last failure seen; used by one waiting thread only. */
    private static final class Observations<T extends @Nullable Object> {

        private boolean sawValue;
        private @Nullable T lastValue;
        private @Nullable Throwable lastFailure;

        Optional<Satisfied<T>> probe(Supplier<T> probe, Predicate<? super T> done) {
            try {
                T value = probe.get();
                sawValue = true;
                lastValue = value;
                return done.test(value) ? Optional.of(new Satisfied<>(value)) : Optional.empty();
            } catch (RuntimeException | AssertionError e) {
                lastFailure = e;
                return Optional.empty();
            }
        }

        AssertionError timedOut(String what, Duration timeout) {
            String message = "timed out after " + format(timeout) + " waiting for " + what
                    + "; last value: " + (sawValue ? String.valueOf(lastValue) : "none (the probe never returned)")
                    + "; last exception: " + (lastFailure == null ? "none" : lastFailure.toString());
            return new AssertionError(message, lastFailure);
        }
    }

    /** A value that satisfied the condition; a box, since the value itself may be {@code null}. */
    private record Satisfied<T extends @Nullable Object>(T value) {
    }
}

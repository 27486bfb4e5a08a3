package dev.operatorstarter.client;

import dev.operatorstarter.client.rest.ApiErrors;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Runs a read-modify-write again when it loses a race (client-go's {@code retry.RetryOnConflict}):
 * the action must read the latest object each time. Defaults as client-go's {@code DefaultRetry}:
 * 5 attempts, 10 ms apart, with 10 % jitter.
 *
 * <pre>{@code
 * RetryOnConflict.run(() -> {
 *     ConfigMap current = configMaps.get("settings");
 *     current.getData().put("colour", "green");
 *     return configMaps.update(current);
 * });
 * }</pre>
 */
public final class RetryOnConflict {

    private static final int DEFAULT_ATTEMPTS = 5;
    private static final Duration DEFAULT_DELAY = Duration.ofMillis(10);

    private RetryOnConflict() {
    }

    /** Runs {@code action} up to 5 times while it fails with a conflict; the last conflict is thrown. */
    public static <T> T run(Supplier<T> action) {
        return run(DEFAULT_ATTEMPTS, DEFAULT_DELAY, action);
    }

    /**
     * Runs {@code action} up to {@code attempts} times while it fails with
     * {@link dev.operatorstarter.client.rest.ApiException.Conflict}, waiting about {@code delay}
     * between attempts. Other failures are thrown at once.
     */
    public static <T> T run(int attempts, Duration delay, Supplier<T> action) {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, was " + attempts);
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                if (!ApiErrors.isConflict(e) || attempt >= attempts) {
                    throw e;
                }
            }
            long nanos = delay.toNanos();
            long jitter = nanos == 0 ? 0 : ThreadLocalRandom.current().nextLong(nanos / 10 + 1);
            try {
                java.util.concurrent.TimeUnit.NANOSECONDS.sleep(nanos + jitter);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted between conflict retries", e);
            }
        }
    }
}

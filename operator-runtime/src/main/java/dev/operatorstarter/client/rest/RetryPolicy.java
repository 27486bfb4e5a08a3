package dev.operatorstarter.client.rest;

import java.io.IOException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpMethod;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;
import reactor.util.retry.Retry;

/**
 * Which failed requests the transport sends again, and after how long (client-go's
 * {@code rest.Request} retries, with the options' {@code maxRetries}, {@code retryBackoff} and
 * {@code maxRetryDelay}):
 * <ul>
 *   <li>429 for any method: the server did not run the request;</li>
 *   <li>503 and 504, and a connection reset before the answer, only for GET, HEAD and OPTIONS;</li>
 *   <li>after the delay the server asked for ({@code Retry-After}), capped at {@code maxRetryDelay},
 *       else exponentially from {@code retryBackoff}, capped, with jitter in [d/2, d];</li>
 *   <li>a watch that cannot connect is not retried here: its owner (the reflector) has its own
 *       backoff, and a TLS or DNS error must surface at once, not after minutes of retries.</li>
 * </ul>
 */
final class RetryPolicy {

    private static final Logger log = LoggerFactory.getLogger(HttpTransport.class);
    /**
     * Methods safe to send twice. PUT and DELETE are not here although HTTP calls them idempotent:
     * a replayed DELETE whose first attempt went through answers 404, a replayed update 409, so
     * the caller would see a failure for a write that succeeded (client-go retries only GET too).
     */
    private static final Set<HttpMethod> IDEMPOTENT = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    private final ClientOptions options;

    RetryPolicy(ClientOptions options) {
        this.options = options;
    }

    /** The retries of {@code spec}; a streaming request is retried only before its first byte. */
    Retry retries(HttpTransport.RequestSpec spec, boolean streaming) {
        return Retry.from(signals -> signals.concatMap(signal -> {
            Throwable failure = signal.failure();
            long attempt = signal.totalRetries();
            Optional<Duration> delay = attempt < options.maxRetries() ? retryDelay(failure, spec, attempt, streaming)
                    : Optional.empty();
            if (delay.isEmpty()) {
                return Mono.error(failure);
            }
            log.debug("Retrying {} in {} ms (attempt {} of {}) after: {}", spec.describe(), delay.get().toMillis(),
                    attempt + 1, options.maxRetries(), failure.getMessage());
            return Mono.delay(delay.get()).thenReturn(attempt);
        }));
    }

    /** How long to wait before retrying after {@code failure}, or empty if it must not be retried. */
    private Optional<Duration> retryDelay(Throwable failure, HttpTransport.RequestSpec spec, long attempt,
            boolean streaming) {
        boolean idempotent = IDEMPOTENT.contains(spec.method());
        if (failure instanceof ApiException api) {
            boolean retry = api.code() == 429 || (idempotent && (api.code() == 503 || api.code() == 504));
            if (!retry) {
                return Optional.empty();
            }
            Optional<Duration> asked = api.retryAfter();
            if (asked.isPresent()) {
                return Optional.of(min(asked.get(), options.maxRetryDelay()));
            }
            return Optional.of(backoff(attempt));
        }
        if (idempotent && !streaming && connectionReset(failure)) {
            return Optional.of(backoff(attempt));
        }
        return Optional.empty();
    }

    private static boolean connectionReset(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PrematureCloseException) {
                return true;
            }
            if (cause instanceof IOException io && io.getMessage() != null
                    && io.getMessage().toLowerCase(Locale.ROOT).contains("connection reset")) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }

    /** Exponential from retryBackoff, capped, with jitter in [d/2, d]. */
    private Duration backoff(long attempt) {
        long base = options.retryBackoff().toNanos();
        long cap = options.maxRetryDelay().toNanos();
        long delay = attempt >= 62 ? cap : Math.min(cap, base << Math.min(attempt, 30));
        long jittered = delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
        return Duration.ofNanos(jittered);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

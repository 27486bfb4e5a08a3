package dev.operatorstarter.client.rest;

import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;

/**
 * How the client talks to the server, independent of where the server is ({@code ClientConfig}).
 * Build with {@link #builder()}; {@link #defaults()} documents every default.
 *
 * @param userAgent the {@code User-Agent} header; default {@code operator-starter/<version> (Java <version>)}
 * @param connectTimeout the TCP connect and TLS handshake limit; default 10 s
 * @param requestTimeout the limit for one attempt of a request, up to the last byte of its
 *     response, not counting the wait for a rate-limit token; watches are exempt (they end by the
 *     server's {@code timeoutSeconds}); default 60 s
 * @param rateLimit a client-side token bucket, or {@code null} (the default) for none: API
 *     Priority and Fairness, on by default since Kubernetes 1.20, protects the server and answers
 *     429 with {@code Retry-After}, which this client honours. client-go's old 5 QPS / burst 10
 *     throttled controllers without protecting anything the server did not already protect
 * @param maxRetries how often a request is retried: after 429 for every method (the server did
 *     not run it), after 503, 504 or a connection reset for GET, HEAD and OPTIONS only (a replayed
 *     write that went through would answer 404 or 409); default 10, as client-go's limit
 * @param retryBackoff the first wait between retries when the server gives no {@code Retry-After};
 *     doubled each time up to {@code maxRetryDelay}; default 500 ms
 * @param maxRetryDelay the longest single wait between retries, also capping {@code Retry-After}; default 30 s
 * @param tokenFileRefresh how often a token file is read again (besides after a 401); default 1 min, as client-go
 * @param idleConnectionTimeout a pooled connection unused for this long is closed rather than
 *     reused; default 60 s, below the API server's own idle timeout (90 s), so the client never
 *     sends a request on a connection the server is closing
 * @param maxWatchEventBytes the most one watch event (one line of a watch response) may take; a
 *     longer one ends the watch with a {@link KubernetesClientException} naming the request and
 *     this limit, after the events before it, and an informer relists after its usual backoff;
 *     default 16 MiB, client-go's limit on one watch frame (one object is at most about 1.5 MiB in
 *     etcd, so only a broken server or proxy comes near it)
 * @param maxResponseBytes the most the body of one response may take, read into memory, except a
 *     list's (see {@code maxListResponseBytes}) and a watch's (read event by event); a larger one
 *     fails the request with a {@link KubernetesClientException} naming it and this limit, and is
 *     not retried; default 16 MiB. {@link Request#stream()} is not limited: its caller reads the
 *     body as it arrives
 * @param maxListResponseBytes the most the body of one list (a GET or DELETE of a collection) may
 *     take; default {@link Integer#MAX_VALUE} bytes (2 GiB), as much as the one buffer a list is
 *     read into holds: the list of a large cluster legitimately runs to hundreds of MiB when the
 *     server ignores {@code limit} (a list served from its watch cache, or the one-request list
 *     after a continue token expired), so a lower default would break informers there. Set it to
 *     what the heap can afford; informers list in pages (500 objects by default), which keeps each
 *     list small whenever the server pages
 * @param interceptors filters around every HTTP attempt, innermost last (client-go's
 *     {@code WrapTransport}): they see the request with its credentials and the raw response
 * @param metrics receives one call per attempt; default {@link RequestMetrics#NONE}
 * @param observationRegistry where each HTTP attempt is observed as {@code http.client.requests}
 *     (Spring WebClient's observation, with Kubernetes-aware keys: see
 *     {@link KubernetesRequestObservationConvention}), a child of the observation current when the
 *     request was made (a reconcile's); default {@link ObservationRegistry#NOOP}: nothing is observed
 * @param timeSource the client's time: monotonic for the rate limiter's tokens, the token file's
 *     refresh, an exec plugin's deadline, request durations, discovery's refresh interval and
 *     the connections to evict after a certificate rotation; wall for an exec credential's
 *     expiry; default {@link TimeSource#system()}. The waits for a token and between retries
 *     are Reactor timers and stay on real time
 */
public record ClientOptions(String userAgent, Duration connectTimeout, Duration requestTimeout,
        @Nullable RateLimit rateLimit, int maxRetries, Duration retryBackoff, Duration maxRetryDelay,
        Duration tokenFileRefresh, Duration idleConnectionTimeout, int maxWatchEventBytes, int maxResponseBytes,
        int maxListResponseBytes, List<ExchangeFilterFunction> interceptors,
        RequestMetrics metrics, ObservationRegistry observationRegistry, TimeSource timeSource) {

    /** The default of {@code maxWatchEventBytes} and {@code maxResponseBytes}. */
    static final int SIXTEEN_MIB = 16 * 1024 * 1024;

    public ClientOptions {
        Objects.requireNonNull(userAgent, "userAgent");
        Durations.requirePositive(connectTimeout, "connectTimeout");
        Durations.requirePositive(requestTimeout, "requestTimeout");
        Durations.requirePositive(retryBackoff, "retryBackoff");
        Durations.requirePositive(maxRetryDelay, "maxRetryDelay");
        Durations.requirePositive(tokenFileRefresh, "tokenFileRefresh");
        Durations.requirePositive(idleConnectionTimeout, "idleConnectionTimeout");
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be 0 or more, was " + maxRetries);
        }
        requirePositive(maxWatchEventBytes, "maxWatchEventBytes");
        requirePositive(maxResponseBytes, "maxResponseBytes");
        requirePositive(maxListResponseBytes, "maxListResponseBytes");
        if (retryBackoff.compareTo(maxRetryDelay) > 0) {
            throw new IllegalArgumentException("retryBackoff (" + retryBackoff + ") must not exceed maxRetryDelay ("
                    + maxRetryDelay + ")");
        }
        interceptors = List.copyOf(interceptors);
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(observationRegistry, "observationRegistry");
        Objects.requireNonNull(timeSource, "timeSource");
    }

    private static void requirePositive(int bytes, String field) {
        if (bytes < 1) {
            throw new IllegalArgumentException(field + " must be at least 1 byte, was " + bytes);
        }
    }

    /** Every option at its default. */
    public static ClientOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.userAgent = userAgent;
        builder.connectTimeout = connectTimeout;
        builder.requestTimeout = requestTimeout;
        builder.rateLimit = rateLimit;
        builder.maxRetries = maxRetries;
        builder.retryBackoff = retryBackoff;
        builder.maxRetryDelay = maxRetryDelay;
        builder.tokenFileRefresh = tokenFileRefresh;
        builder.idleConnectionTimeout = idleConnectionTimeout;
        builder.maxWatchEventBytes = maxWatchEventBytes;
        builder.maxResponseBytes = maxResponseBytes;
        builder.maxListResponseBytes = maxListResponseBytes;
        builder.interceptors.addAll(interceptors);
        builder.metrics = metrics;
        builder.observationRegistry = observationRegistry;
        builder.timeSource = timeSource;
        return builder;
    }

    /** Builds {@link ClientOptions}; validation happens in {@link #build()}. */
    public static final class Builder {
        private String userAgent = "operator-starter/" + Version.current() + " (Java "
                + Runtime.version().feature() + ")";
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration requestTimeout = Duration.ofSeconds(60);
        private @Nullable RateLimit rateLimit;
        private int maxRetries = 10;
        private Duration retryBackoff = Duration.ofMillis(500);
        private Duration maxRetryDelay = Duration.ofSeconds(30);
        private Duration tokenFileRefresh = Duration.ofMinutes(1);
        private Duration idleConnectionTimeout = Duration.ofSeconds(60);
        private int maxWatchEventBytes = SIXTEEN_MIB;
        private int maxResponseBytes = SIXTEEN_MIB;
        private int maxListResponseBytes = Integer.MAX_VALUE;
        private final List<ExchangeFilterFunction> interceptors = new ArrayList<>();
        private RequestMetrics metrics = RequestMetrics.NONE;
        private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;
        private TimeSource timeSource = TimeSource.system();

        private Builder() {
        }

        public Builder userAgent(String userAgent) {
            this.userAgent = userAgent;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
            return this;
        }

        public Builder rateLimit(@Nullable RateLimit rateLimit) {
            this.rateLimit = rateLimit;
            return this;
        }

        public Builder maxRetries(int maxRetries) {
            this.maxRetries = maxRetries;
            return this;
        }

        public Builder retryBackoff(Duration retryBackoff) {
            this.retryBackoff = retryBackoff;
            return this;
        }

        public Builder maxRetryDelay(Duration maxRetryDelay) {
            this.maxRetryDelay = maxRetryDelay;
            return this;
        }

        public Builder tokenFileRefresh(Duration tokenFileRefresh) {
            this.tokenFileRefresh = tokenFileRefresh;
            return this;
        }

        public Builder idleConnectionTimeout(Duration idleConnectionTimeout) {
            this.idleConnectionTimeout = idleConnectionTimeout;
            return this;
        }

        public Builder maxWatchEventBytes(int maxWatchEventBytes) {
            this.maxWatchEventBytes = maxWatchEventBytes;
            return this;
        }

        public Builder maxResponseBytes(int maxResponseBytes) {
            this.maxResponseBytes = maxResponseBytes;
            return this;
        }

        public Builder maxListResponseBytes(int maxListResponseBytes) {
            this.maxListResponseBytes = maxListResponseBytes;
            return this;
        }

        /** Adds a filter around every HTTP attempt; the last added is closest to the network. */
        public Builder interceptor(ExchangeFilterFunction interceptor) {
            this.interceptors.add(Objects.requireNonNull(interceptor, "interceptor"));
            return this;
        }

        public Builder metrics(RequestMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder observationRegistry(ObservationRegistry observationRegistry) {
            this.observationRegistry = observationRegistry;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        public ClientOptions build() {
            return new ClientOptions(userAgent, connectTimeout, requestTimeout, rateLimit, maxRetries, retryBackoff,
                    maxRetryDelay, tokenFileRefresh, idleConnectionTimeout, maxWatchEventBytes, maxResponseBytes,
                    maxListResponseBytes, interceptors, metrics, observationRegistry,
                    timeSource);
        }
    }
}

package dev.operatorstarter.client.rest;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Receives one call per HTTP attempt (retries count separately), the way client-go's
 * {@code rest_client_requests_total} and {@code rest_client_request_duration_seconds} do.
 * Called on an I/O thread: implementations must be fast and must not block or throw.
 */
public interface RequestMetrics {

    /** Records nothing. */
    RequestMetrics NONE = (method, host, code, latency) -> { };

    /**
     * {@link RequestMetrics} on Micrometer, with controller-runtime's Prometheus names:
     * {@code rest_client_requests_total{code,method,host}} and
     * {@code rest_client_request_duration_seconds{verb,host}}.
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static RequestMetrics micrometer(MeterRegistry registry) {
        return new MicrometerRequestMetrics(registry);
    }

    /**
     * @param method the HTTP method, for example {@code GET}
     * @param host the server's {@code host:port}
     * @param code the HTTP status code as text, or {@code <error>} when no response arrived
     * @param latency from sending the request to receiving the response headers
     */
    void requestCompleted(String method, String host, String code, Duration latency);
}

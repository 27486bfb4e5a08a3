package dev.operatorstarter.client.rest;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;

/**
 * {@link RequestMetrics} on Micrometer, with controller-runtime's Prometheus names:
 * {@code rest_client_requests_total{code,method,host}} and
 * {@code rest_client_request_duration_seconds{verb,host}}. Needs {@code micrometer-core} on the
 * class path (an optional dependency of this library).
 */
final class MicrometerRequestMetrics implements RequestMetrics {

    private final MeterRegistry registry;

    MicrometerRequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void requestCompleted(String method, String host, String code, Duration latency) {
        Counter.builder("rest.client.requests")
                .description("Number of HTTP requests, partitioned by status code, method, and host.")
                .tag("code", code).tag("method", method).tag("host", host)
                .register(registry).increment();
        Timer.builder("rest.client.request.duration")
                .description("Request latency in seconds, broken down by verb and host.")
                .tag("verb", method).tag("host", host)
                .register(registry).record(latency);
    }
}

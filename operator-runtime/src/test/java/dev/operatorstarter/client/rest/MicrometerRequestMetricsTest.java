package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MicrometerRequestMetricsTest {

    @Test
    void countsByCodeMethodAndHostAndTimesByVerbAndHost() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RequestMetrics metrics = RequestMetrics.micrometer(registry);

        metrics.requestCompleted("GET", "10.0.0.1:6443", "200", Duration.ofMillis(12));
        metrics.requestCompleted("GET", "10.0.0.1:6443", "200", Duration.ofMillis(8));
        metrics.requestCompleted("GET", "10.0.0.1:6443", "<error>", Duration.ofMillis(3));

        assertThat(registry.get("rest.client.requests").tags("code", "200", "method", "GET", "host", "10.0.0.1:6443")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get("rest.client.requests").tag("code", "<error>").counter().count()).isEqualTo(1);
        assertThat(registry.get("rest.client.request.duration").tags("verb", "GET", "host", "10.0.0.1:6443")
                .timer().count()).isEqualTo(3);
    }
}

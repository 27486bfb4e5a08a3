package dev.operatorstarter.autoconfigure.webhook;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@link WebhookMetrics} on Micrometer with controller-runtime's Prometheus names:
 * {@code controller_runtime_webhook_requests_total{webhook,code}},
 * {@code controller_runtime_webhook_latency_seconds{webhook}} (a histogram with Prometheus's
 * default buckets, 5 ms to 10 s, as controller-runtime has) and
 * {@code controller_runtime_webhook_requests_in_flight{webhook}}. The {@code webhook} label is
 * the path, one series per served path (requests to other paths are not recorded).
 */
final class MicrometerWebhookMetrics implements WebhookMetrics {

    private static final String WEBHOOK = "webhook";
    /** Prometheus client_golang's DefBuckets, which controller-runtime's webhook latency uses. */
    static final Duration[] BUCKETS = {Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
        Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500), Duration.ofSeconds(1),
        Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10)};

    private final MeterRegistry registry;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    MicrometerWebhookMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void served(String webhook) {
        inFlight(webhook);
        latency(webhook);
        requests(webhook, 200);
    }

    @Override
    public void started(String webhook) {
        inFlight(webhook).incrementAndGet();
    }

    @Override
    public void finished(String webhook, int code, Duration duration) {
        inFlight(webhook).decrementAndGet();
        requests(webhook, code).increment();
        latency(webhook).record(duration);
    }

    private AtomicInteger inFlight(String webhook) {
        return inFlight.computeIfAbsent(webhook, path -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder("controller.runtime.webhook.requests.in.flight", value, AtomicInteger::get).strongReference(true)
                    .description("Current number of admission requests being served.").tag(WEBHOOK, path)
                    .register(registry);
            return value;
        });
    }

    private Counter requests(String webhook, int code) {
        return Counter.builder("controller.runtime.webhook.requests")
                .description("Total number of admission requests by HTTP status code.").tag(WEBHOOK, webhook)
                .tag("code", Integer.toString(code)).register(registry);
    }

    private Timer latency(String webhook) {
        return Timer.builder("controller.runtime.webhook.latency")
                .description("Histogram of the latency of processing admission requests").tag(WEBHOOK, webhook)
                .serviceLevelObjectives(BUCKETS).register(registry);
    }
}

package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.time.TimeSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code webhooks} health indicator, in the readiness group by default: UP once the webhook
 * server listens with an unexpired certificate and the CA is injected everywhere it should be
 * (until then the API server could not call it, so traffic should not be routed to this pod);
 * DOWN otherwise, with what is missing in the details. A certificate file that cannot be read
 * again while the last good certificate still serves is shown but keeps it UP, and so is a new
 * certificate waiting for its CA to be injected while the current one is served.
 */
final class WebhookServerHealthIndicator implements HealthIndicator {

    private final WebhookServer server;
    private final Supplier<List<String>> registrationPending;
    private final TimeSource time;

    /** @param registrationPending what the registration with the API server still has to do; empty when done or off */
    WebhookServerHealthIndicator(WebhookServer server, Supplier<List<String>> registrationPending, TimeSource time) {
        this.server = server;
        this.registrationPending = registrationPending;
        this.time = time;
    }

    @Override
    public Health health() {
        WebhookServer.Status status = server.status();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("listening", status.running());
        if (status.running()) {
            details.put("port", status.port());
        }
        details.put("paths", status.paths());
        details.put("certificate", status.certificate());
        if (status.certificateNotAfter() != null) {
            details.put("certificateNotAfter", status.certificateNotAfter().toString());
        }
        if (status.certificateProblem() != null) {
            details.put("certificateProblem", status.certificateProblem());
        }
        if (status.certificateRotation() != null) {
            details.put("certificateRotation", status.certificateRotation());
        }
        if (!status.caInjectionPending().isEmpty()) {
            details.put("caInjectionPending", status.caInjectionPending());
        }
        List<String> registering = registrationPending.get();
        if (!registering.isEmpty()) {
            details.put("registrationPending", registering);
        }
        return (status.ready(time.now()) && registering.isEmpty() ? Health.up() : Health.down()).withDetails(details).build();
    }
}

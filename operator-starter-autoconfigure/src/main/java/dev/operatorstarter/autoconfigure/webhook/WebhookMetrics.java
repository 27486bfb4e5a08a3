package dev.operatorstarter.autoconfigure.webhook;

import java.time.Duration;

/**
 * What the webhook server records per request, labelled by path: requests by HTTP status code,
 * latency, and requests in flight. Implementations are thread-safe.
 */
interface WebhookMetrics {

    /** Records nothing. */
    WebhookMetrics NONE = new WebhookMetrics() {
        @Override
        public void served(String webhook) {
        }

        @Override
        public void started(String webhook) {
        }

        @Override
        public void finished(String webhook, int code, Duration duration) {
        }
    };

    /** {@code webhook} (a path) is served: its meters exist from now on, before any request. */
    void served(String webhook);

    /** A request to {@code webhook} arrived. */
    void started(String webhook);

    /** The request to {@code webhook} was answered with HTTP {@code code} after {@code duration}. */
    void finished(String webhook, int code, Duration duration);
}

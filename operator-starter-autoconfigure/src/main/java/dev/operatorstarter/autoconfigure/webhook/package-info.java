/**
 * Admission and conversion webhooks served by the operator: the {@link
 * dev.operatorstarter.autoconfigure.webhook.AdmissionWebhook @AdmissionWebhook} and {@link
 * dev.operatorstarter.autoconfigure.webhook.ConversionWebhook @ConversionWebhook} annotations
 * applications put on handler and converter beans, the {@code operator.webhook.*} properties
 * ({@link dev.operatorstarter.autoconfigure.webhook.WebhookProperties}), the {@link
 * dev.operatorstarter.autoconfigure.webhook.WebhookServer} (HTTPS on a port of its own, Reactor
 * Netty, independent of {@code server.port}) and its auto-configuration. The handlers and
 * endpoints themselves are plain functions in the runtime's {@code dev.operatorstarter.webhook}.
 * Everything else here (certificates from files or generated, caBundle injection, the
 * registration of the webhooks with the API server for local runs and tests, metrics, the health
 * indicator) is package-private wiring, not API. Registered only through
 * {@code META-INF/spring/...AutoConfiguration.imports}.
 */
@NullMarked
package dev.operatorstarter.autoconfigure.webhook;

import org.jspecify.annotations.NullMarked;

package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.autoconfigure.wiring.OperatorClientAutoConfiguration;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import reactor.core.scheduler.Schedulers;

/**
 * The webhook server, when {@code operator.webhook.enabled=true}: the {@link AdmissionWebhook} and
 * {@link ConversionWebhook} beans served over HTTPS on {@code operator.webhook.port}, with a
 * certificate from files or generated, the CA injected into the named webhook configurations and
 * CRDs, the {@code webhooks} health indicator (in the readiness group) and controller-runtime's
 * webhook metrics. Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = OperatorClientAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("operator.webhook.enabled")
@EnableConfigurationProperties(WebhookProperties.class)
public final class WebhookAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(WebhookServer.class)
    NettyWebhookServer webhookServer(WebhookProperties properties, ConfigurableListableBeanFactory beanFactory,
            ObjectProvider<KubernetesClient> client, ObjectProvider<WebhookMetrics> metrics) {
        CaBundleInjector injector = null;
        if (properties.caInjection().any()) {
            WebhookProperties.Certificate certificate = properties.certificate();
            if (!certificate.generated() && certificate.caFile() == null) {
                throw new InvalidWebhookException("operator.webhook.ca-injection names "
                        + CaBundleInjector.describe(properties.caInjection()) + ", but the certificate is supplied "
                        + "without its CA: set operator.webhook.certificate.ca-file, or leave the injection to "
                        + "cert-manager's CA injector");
            }
            KubernetesClient kubernetes = client.getIfAvailable();
            if (kubernetes == null) {
                throw new InvalidWebhookException("operator.webhook.ca-injection needs a KubernetesClient bean to write "
                        + "the caBundle, and there is none (is operator.enabled false, or the client auto-configuration "
                        + "excluded?)");
            }
            injector = new CaBundleInjector(kubernetes, properties.caInjection());
        }
        return new NettyWebhookServer(properties, WebhookBeans.endpoints(beanFactory),
                () -> CertificateSource.of(properties.certificate(), classLoader(beanFactory)), injector, Schedulers.boundedElastic(),
                metrics.getIfAvailable(() -> WebhookMetrics.NONE), TimeSource.system());
    }

    private static ClassLoader classLoader(ConfigurableListableBeanFactory beanFactory) {
        ClassLoader loader = beanFactory.getBeanClassLoader();
        return loader != null ? loader : WebhookAutoConfiguration.class.getClassLoader();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "operator.metrics.enabled", matchIfMissing = true)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        WebhookMetrics webhookMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            return meters == null ? WebhookMetrics.NONE : new MicrometerWebhookMetrics(meters);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("operator")
    static class Health {

        @Bean
        @ConditionalOnMissingBean(name = "webhooksHealthIndicator")
        WebhookServerHealthIndicator webhooksHealthIndicator(WebhookServer server) {
            return new WebhookServerHealthIndicator(server, TimeSource.system());
        }
    }
}

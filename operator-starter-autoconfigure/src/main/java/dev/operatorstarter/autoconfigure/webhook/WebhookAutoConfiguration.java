package dev.operatorstarter.autoconfigure.webhook;

import dev.operatorstarter.autoconfigure.wiring.OperatorClientAutoConfiguration;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.time.TimeSource;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
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
import org.springframework.core.env.Environment;

/**
 * The webhook server, when {@code operator.webhook.enabled=true}: the {@link AdmissionWebhook} and
 * {@link ConversionWebhook} beans served over HTTPS on {@code operator.webhook.port}, with a
 * certificate from files or generated, the CA injected into the named webhook configurations and
 * CRDs, the {@code webhooks} health indicator (in the readiness group) and controller-runtime's
 * webhook metrics; with {@code operator.webhook.register.enabled=true}, the webhooks registered
 * with the API server ({@link WebhookRegistration}). Each bean backs off when the application defines its own.
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
        TimeSource time = TimeSource.system();
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
            injector = new CaBundleInjector(kubernetes, properties.caInjection(), time);
        }
        return new NettyWebhookServer(properties, WebhookBeans.endpoints(beanFactory),
                () -> CertificateSource.of(properties.certificate(), classLoader(beanFactory), time), injector,
                metrics.getIfAvailable(() -> WebhookMetrics.NONE), time);
    }

    private static ClassLoader classLoader(ConfigurableListableBeanFactory beanFactory) {
        ClassLoader loader = beanFactory.getBeanClassLoader();
        return loader != null ? loader : WebhookAutoConfiguration.class.getClassLoader();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty("operator.webhook.register.enabled")
    static class Registration {

        @Bean
        @ConditionalOnMissingBean
        WebhookRegistration webhookRegistration(WebhookProperties properties, WebhookServer server,
                ObjectProvider<KubernetesClient> client, ConfigurableListableBeanFactory beanFactory,
                Environment environment) {
            KubernetesClient kubernetes = client.getIfAvailable();
            if (kubernetes == null) {
                throw new InvalidWebhookException("operator.webhook.register.enabled needs a KubernetesClient bean to "
                        + "register the webhooks, and there is none (is operator.enabled false, or the client "
                        + "auto-configuration excluded?)");
            }
            WebhookProperties.Register register = properties.register();
            String name = register.name() != null && !register.name().isBlank() ? register.name()
                    : configurationName(environment.getProperty("spring.application.name", "operator"));
            return new WebhookRegistration(kubernetes, server, register, name, properties.address(),
                    () -> WebhookBeans.targets(beanFactory, WebhookBeans.endpoints(beanFactory)));
        }

        /** {@code spring.application.name} as a DNS subdomain. */
        static String configurationName(String applicationName) {
            String name = applicationName.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-")
                    .replaceAll("^[-.]+|[-.]+$", "");
            return name.isEmpty() ? "operator" : name.length() > 253 ? name.substring(0, 253) : name;
        }
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
        WebhookServerHealthIndicator webhooksHealthIndicator(WebhookServer server,
                ObjectProvider<WebhookRegistration> registration) {
            WebhookRegistration registering = registration.getIfAvailable();
            return new WebhookServerHealthIndicator(server,
                    registering == null ? List::of : registering::pending, TimeSource.system());
        }
    }
}

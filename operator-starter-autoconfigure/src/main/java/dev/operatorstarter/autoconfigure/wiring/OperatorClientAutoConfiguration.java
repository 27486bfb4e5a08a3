package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.KubernetesClientCustomizer;
import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RateLimit;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.unit.DataSize;

/**
 * The Kubernetes client: connection details from {@code operator.client.*} (or a
 * {@code @ServiceConnection}), the {@link ClientConfig} they resolve to, and the
 * {@link KubernetesClient} with its options and metrics, shaped by every
 * {@link KubernetesClientCustomizer}. Each bean backs off when the application defines its own.
 */
@AutoConfiguration(after = OperatorMetricsAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorClientAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(KubernetesConnectionDetails.class)
    PropertiesKubernetesConnectionDetails kubernetesConnectionDetails(OperatorProperties properties) {
        return new PropertiesKubernetesConnectionDetails(properties.client(), System.getenv());
    }

    @Bean
    @ConditionalOnMissingBean
    ClientConfig kubernetesClientConfig(KubernetesConnectionDetails connectionDetails) {
        return connectionDetails.clientConfig();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    KubernetesClient kubernetesClient(ClientConfig config, OperatorProperties properties,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<ObservationRegistry> observations,
            ObjectProvider<KubernetesClientCustomizer> customizers) {
        OperatorProperties.Client client = properties.client();
        ClientOptions.Builder options = ClientOptions.builder().connectTimeout(client.connectTimeout())
                .requestTimeout(client.requestTimeout()).maxRetries(client.maxRetries())
                .maxWatchEventBytes(bytes(client.maxWatchEventSize()))
                .maxResponseBytes(bytes(client.maxResponseSize()))
                .maxListResponseBytes(bytes(client.maxListResponseSize()))
                .metrics(OperatorMetrics.of(metrics).requests())
                .observationRegistry(observations.getIfUnique(() -> ObservationRegistry.NOOP));
        if (client.qps() > 0) {
            options.rateLimit(new RateLimit(client.qps(), client.burst()));
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(options));
        return KubernetesClient.create(config, options.build());
    }

    /** A size as the client's int byte count: 2GB and more is read as the most an int holds; below 1 byte fails in ClientOptions. */
    private static int bytes(DataSize size) {
        return (int) Math.min(Integer.MAX_VALUE, size.toBytes());
    }
}

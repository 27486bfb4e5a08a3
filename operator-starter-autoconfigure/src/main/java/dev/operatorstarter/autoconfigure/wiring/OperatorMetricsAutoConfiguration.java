package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.cache.ReaderMetrics;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.sharding.ShardingMetrics;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The operator's metric sinks, on the application's {@link MeterRegistry} with
 * controller-runtime's names when Micrometer is present, a unique (or primary) registry exists
 * and {@code operator.metrics.enabled} is true; sinks that record nothing otherwise.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
public final class OperatorMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OperatorMetrics operatorMetrics() {
        return OperatorMetrics.none();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "operator.metrics.enabled", matchIfMissing = true)
    static class Micrometer {

        @Bean
        @ConditionalOnMissingBean
        OperatorMetrics operatorMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            if (meters == null) {
                return OperatorMetrics.none();
            }
            return new OperatorMetrics(RequestMetrics.micrometer(meters), ReflectorMetrics.micrometer(meters),
                    ReaderMetrics.micrometer(meters), ControllerMetrics.micrometer(meters),
                    WorkQueueMetrics.micrometer(meters), LeaderMetrics.micrometer(meters),
                    ShardingMetrics.micrometer(meters));
        }
    }
}

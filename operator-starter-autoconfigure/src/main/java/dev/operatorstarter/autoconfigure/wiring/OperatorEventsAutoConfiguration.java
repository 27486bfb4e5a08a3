package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.event.EventOptions;
import dev.operatorstarter.event.EventRecorder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Kubernetes Events: the {@link EventBroadcaster} (when {@code operator.events.enabled}) that the
 * manager starts and closes, and the {@link EventRecorder} reconcilers inject (one that records
 * nothing when events are off).
 */
@AutoConfiguration(after = OperatorClientAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorEventsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    EventRecorder eventRecorder(ObjectProvider<EventBroadcaster> broadcaster, OperatorProperties properties,
            Environment environment) {
        EventBroadcaster events = broadcaster.getIfAvailable();
        if (events == null) {
            return (regarding, type, reason, action, note) -> { }; // operator.events.enabled=false
        }
        String controller = properties.events().reportingController();
        return events.recorder(controller != null && !controller.isBlank() ? controller
                : environment.getProperty("spring.application.name", "operator-starter"));
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "operator.events.enabled", matchIfMissing = true)
    static class Broadcaster {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        EventBroadcaster eventBroadcaster(KubernetesClient client, OperatorProperties properties) {
            return new EventBroadcaster(client,
                    EventOptions.builder().queueCapacity(properties.events().queueCapacity()).build());
        }
    }
}

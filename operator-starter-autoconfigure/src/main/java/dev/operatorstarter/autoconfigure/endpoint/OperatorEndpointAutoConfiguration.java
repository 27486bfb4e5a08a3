package dev.operatorstarter.autoconfigure.endpoint;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.wiring.OperatorControllersAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/** The {@code operator} actuator endpoint, when the actuator is present and the endpoint is available. */
@AutoConfiguration(after = OperatorControllersAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(OperatorStatus.class)
@ConditionalOnAvailableEndpoint(OperatorEndpoint.class)
public final class OperatorEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OperatorEndpoint operatorEndpoint(OperatorStatus status) {
        return new OperatorEndpoint(status);
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.LeaderElectionCustomizer;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.client.config.ClientConfig;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Leader election on a Lease (when {@code operator.leader-election.enabled}, the default): the
 * Lease's namespace, name and this replica's identity ({@link LeaseSettings}), which the manager
 * elects with (its elector is {@code Manager.leaderElector()}). Tune the election with
 * {@link LeaderElectionCustomizer} beans.
 */
@AutoConfiguration(after = OperatorClientAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = { "operator.enabled", "operator.leader-election.enabled" }, matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorLeaderElectionAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    LeaseSettings operatorLeaseSettings(OperatorProperties properties, ClientConfig config, Environment environment) {
        return LeaseSettings.of(properties.leaderElection(), config.namespace(),
                environment.getProperty("spring.application.name"), System.getenv());
    }
}

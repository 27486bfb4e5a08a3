package dev.operatorstarter.autoconfigure.health;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.wiring.OperatorControllersAutoConfiguration;
import dev.operatorstarter.sharding.Sharding;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The operator's health indicators ({@code informers}, {@code controllers}, {@code leaderElection},
 * and {@code sharding} with a {@link Sharding})
 * over {@link OperatorStatus}, when Spring Boot's health support is present and
 * {@code management.health.operator.enabled} is not false.
 * {@link OperatorHealthGroupsEnvironmentPostProcessor} puts them in the probe groups.
 */
@AutoConfiguration(after = OperatorControllersAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(OperatorStatus.class)
@ConditionalOnEnabledHealthIndicator("operator")
public final class OperatorHealthContributorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "informersHealthIndicator")
    InformersHealthIndicator informersHealthIndicator(OperatorStatus status) {
        return new InformersHealthIndicator(status);
    }

    @Bean
    @ConditionalOnMissingBean(name = "controllersHealthIndicator")
    ControllersHealthIndicator controllersHealthIndicator(OperatorStatus status) {
        return new ControllersHealthIndicator(status);
    }

    @Bean
    @ConditionalOnMissingBean(name = "shardingHealthIndicator")
    @ConditionalOnBean(Sharding.class)
    ShardingHealthIndicator shardingHealthIndicator(OperatorStatus status) {
        return new ShardingHealthIndicator(status);
    }

    @Bean
    @ConditionalOnMissingBean(name = "leaderElectionHealthIndicator")
    LeaderElectionHealthIndicator leaderElectionHealthIndicator(OperatorStatus status) {
        return new LeaderElectionHealthIndicator(status);
    }
}

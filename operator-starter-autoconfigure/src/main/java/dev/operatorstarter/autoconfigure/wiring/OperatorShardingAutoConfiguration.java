package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.ShardingCustomizer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.leaderelection.LeaseTiming;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.sharding.ShardingOptions;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Sharding (when {@code operator.sharding.enabled}): this replica's member of the ring
 * ({@link ShardSettings}), the runtime's {@link Sharding} on the operator's informer factory
 * (shaped by every {@link ShardingCustomizer}), installed in the manager as a plug-in. The manager
 * runs it: the member campaigns once the caches synced, the leader runs the assigner, and a
 * member whose Lease was taken closes the application (it may have been declared dead; a new
 * process joins as a new member).
 */
@AutoConfiguration(after = { OperatorLeaderElectionAutoConfiguration.class, OperatorInformersAutoConfiguration.class,
        OperatorMetricsAutoConfiguration.class }, before = OperatorControllersAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("operator.sharding.enabled")
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorShardingAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ShardSettings operatorShardSettings(OperatorProperties properties, ObjectProvider<LeaseSettings> lease,
            Environment environment) {
        return ShardSettings.of(properties.sharding(), lease.getIfAvailable(),
                environment.getProperty("spring.application.name"), System.getenv());
    }

    /** The runtime's sharding; the manager starts and closes it ({@code destroyMethod = ""}). */
    @Bean(destroyMethod = "")
    @ConditionalOnMissingBean
    Sharding operatorSharding(KubernetesClient client, SharedInformerFactory informers, ShardSettings settings,
            OperatorProperties properties, ObjectProvider<OperatorMetrics> metrics,
            ObjectProvider<ShardingCustomizer> customizers, ConfigurableApplicationContext context) {
        OperatorProperties.Sharding sharding = properties.sharding();
        OperatorProperties.LeaderElection election = properties.leaderElection();
        LeaseTiming timing;
        try {
            timing = election.timing();
        } catch (IllegalArgumentException e) {
            throw invalid(settings, e);
        }
        ShardingOptions.Builder options = ShardingOptions.builder(settings.ring(), settings.shardId(), settings.namespace())
                .virtualNodes(sharding.virtualNodes()).timing(timing)
                .resyncPeriod(sharding.resyncPeriod()).assignerWorkers(sharding.assignerWorkers())
                .arrivalTimeout(sharding.arrivalTimeout()).orphanTtl(sharding.orphanTtl())
                .metrics(OperatorMetrics.of(metrics).shards());
        customizers.orderedStream().forEach(customizer -> customizer.customize(options));
        ShardingOptions built;
        try {
            built = options.build();
        } catch (IllegalArgumentException e) {
            throw invalid(settings, e);
        }
        return Sharding.builder(client, informers, built)
                .onTainted(OperatorLifecycle.shutdown(context, "operator-shutdown-after-taken-member"))
                .build();
    }

    private static InvalidShardingException invalid(ShardSettings settings, IllegalArgumentException e) {
        return new InvalidShardingException("the ring " + settings.ring() + " cannot be set up: " + e.getMessage(),
                "Fix the operator.sharding.* or operator.leader-election.* property it names", e);
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.wiring.ReconcilerRegistrar.ReconcilerDefinitions;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.rbac.AccessRules;
import dev.operatorstarter.rbac.OperatorAccess;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The start-up permission check ({@code operator.permission-check.*}): before the informers start,
 * {@link OperatorLifecycle} asks the API server whether this identity may do what the operator
 * needs ({@link PermissionCheck}), and fails the start with the missing rules when it may not.
 */
@AutoConfiguration(after = { OperatorInformersAutoConfiguration.class, OperatorEventsAutoConfiguration.class,
        OperatorLeaderElectionAutoConfiguration.class, OperatorShardingAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorPermissionCheckAutoConfiguration {

    /**
     * What the operator asks the API server for before its informers start: where each controller
     * reconciles, its caches, writes and {@code @Permission}s (and the Events it records, and
     * sharding's label patches); in the Lease's namespace, the leader Lease; in the ring's, the
     * member Leases. The same derivation as the RBAC the build writes ({@link OperatorAccess}).
     */
    @Bean
    @ConditionalOnBooleanProperty(name = "operator.permission-check.enabled", matchIfMissing = true)
    @ConditionalOnMissingBean
    PermissionCheck operatorPermissionCheck(KubernetesClient client, ReconcilerDefinitions definitions,
            ConfigurableListableBeanFactory beanFactory, OperatorProperties properties, ObjectProvider<EventBroadcaster> events,
            ObjectProvider<LeaseSettings> lease, ObjectProvider<ShardSettings> ring) {
        Map<String, AccessRules> needs = new LinkedHashMap<>();
        ShardSettings shards = ring.getIfAvailable();
        boolean recording = events.getIfAvailable() != null;
        for (ReconcilerDefinition definition : definitions.all()) {
            AccessRules rules = CodePermissions.access(definition);
            if (recording) {
                rules = rules.and(OperatorAccess.events());
            }
            if (shards != null && shards.shards(definition.controllerName())) {
                rules = rules.and(CodePermissions.sharded(definition));
            }
            for (String namespace : ReconcilerControllers.namespaces(definition, properties.informers(),
                    beanFactory::resolveEmbeddedValue)) {
                needs.merge(namespace, rules, AccessRules::and);
            }
        }
        LeaseSettings settings = lease.getIfAvailable();
        if (settings != null && !definitions.all().isEmpty()) {
            needs.merge(settings.namespace(), OperatorAccess.leaderElection(settings.name()), AccessRules::and);
        }
        if (shards != null) {
            needs.merge(shards.namespace(), OperatorAccess.shardMembers(), AccessRules::and);
        }
        return new PermissionCheck(client, needs, properties.permissionCheck().timeout());
    }

    /**
     * Begins the check as the context starts, so that it overlaps the web server's and the webhook
     * server's start; the operator waits for its result before any informer starts. Not when the
     * informers' sync is not waited for: then the operator does not run the check.
     */
    @Bean
    @ConditionalOnBean(PermissionCheck.class)
    @ConditionalOnBooleanProperty(name = "operator.informers.wait-for-sync-on-startup", matchIfMissing = true)
    PermissionCheckStart operatorPermissionCheckStart(PermissionCheck check) {
        return new PermissionCheckStart(check);
    }
}

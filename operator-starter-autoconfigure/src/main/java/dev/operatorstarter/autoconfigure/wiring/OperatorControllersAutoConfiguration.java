package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.LeaderElectionCustomizer;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.wiring.ReconcilerRegistrar.ReconcilerDefinitions;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.ManagerOptions;
import dev.operatorstarter.rbac.AccessRules;
import dev.operatorstarter.rbac.OperatorAccess;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The controllers and their lifecycle: one controller per {@link Reconciler} bean (built by
 * {@link ReconcilerControllers}, shaped by every {@link ControllerCustomizer}), the runtime's
 * {@link Manager} that runs them with the informers, events and leader election, the
 * {@link OperatorStatus} view, and the {@link OperatorLifecycle} that starts and closes the
 * manager with the application context.
 */
@AutoConfiguration(after = { OperatorInformersAutoConfiguration.class, OperatorEventsAutoConfiguration.class,
        OperatorLeaderElectionAutoConfiguration.class, OperatorMetricsAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorControllersAutoConfiguration {

    @Bean
    ReconcilerControllers reconcilerControllers(ConfigurableListableBeanFactory beanFactory,
            OperatorInformers informers, KubernetesClient client, OperatorProperties properties,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<ObservationRegistry> observations,
            Environment environment, ObjectProvider<ControllerCustomizer> customizers,
            ObjectProvider<ShardedReconcilers> shards) {
        return new ReconcilerControllers(beanFactory, informers, client, properties, OperatorMetrics.of(metrics),
                observations.getIfUnique(() -> ObservationRegistry.NOOP), workerThreads(environment),
                customizers.orderedStream().toList(), ShardedReconcilers.of(shards));
    }

    /** Virtual threads when {@code spring.threads.virtual.enabled} is set on Java 21+, else daemon platform threads. */
    private static ThreadFactory workerThreads(Environment environment) {
        if (Threading.VIRTUAL.isActive(environment)) {
            return new VirtualThreadTaskExecutor("reconcile-").getVirtualThreadFactory();
        }
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "reconcile-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * The runtime's manager, built from the properties and beans: the informer factory, the event
     * broadcaster, leader election (when {@code operator.leader-election.enabled}), and one
     * controller per {@link Reconciler} bean. {@link OperatorLifecycle} starts and closes it.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Manager operatorManager(KubernetesClient client, SharedInformerFactory informers,
            ObjectProvider<EventBroadcaster> events, ReconcilerDefinitions definitions,
            ConfigurableListableBeanFactory beanFactory, OperatorProperties properties,
            ConfigurableApplicationContext context, ObjectProvider<LeaseSettings> lease,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<LeaderElectionCustomizer> customizers,
            ObjectProvider<ShardedReconcilers> sharded) {
        Manager.Builder manager = Manager.builder(client).informers(informers)
                .options(ManagerOptions.builder().cacheSyncTimeout(properties.informers().cacheSyncTimeout())
                        .shutdownTimeout(properties.controllers().shutdownTimeout())
                        .onMissingResource(properties.informers().onMissingCrd())
                        .build());
        EventBroadcaster broadcaster = events.getIfAvailable();
        if (broadcaster != null) {
            manager.events(broadcaster);
        }
        LeaseSettings settings = lease.getIfAvailable();
        if (settings != null) {
            OperatorProperties.LeaderElection election = properties.leaderElection();
            manager.leaderElection(callbacks -> {
                LeaderElectionConfig.Builder config = LeaderElectionConfig
                        .builder(LeaseLock.of(client, settings.namespace(), settings.name(), settings.identity()),
                                callbacks)
                        .timing(election.timing()).releaseOnClose(election.releaseOnShutdown())
                        .name(settings.name()).metrics(OperatorMetrics.of(metrics).leaders());
                customizers.orderedStream().forEach(customizer -> customizer.customize(config));
                return new LeaderElector(config.build());
            });
            if (election.onLost() == OperatorProperties.OnLost.SHUTDOWN) {
                manager.onLostLeadership(shutdown(context, "operator-shutdown-after-lost-lease"));
            }
        }
        ShardedReconcilers shards = ShardedReconcilers.of(sharded);
        shards.sharding().ifPresent(manager::sharding);
        Manager built = manager.build();
        for (ReconcilerDefinition definition : definitions.all()) {
            Controller<?> controller = beanFactory.getBean(definitions.controllerBeans().get(definition.beanName()),
                    Controller.class);
            if (shards.isSharded(definition)) {
                built.addSharded(controller, definition.resource().getSimpleName());
            } else {
                built.add(controller, definition.resource().getSimpleName());
            }
        }
        return built;
    }

    /**
     * What ends a replica that must not go on: liveness BROKEN (a probe restarts the pod), and the
     * context closed on a thread of its own ({@code name}), as controller-runtime exits.
     */
    static Runnable shutdown(ConfigurableApplicationContext context, String name) {
        return () -> {
            AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
            Thread closer = new Thread(context::close, name);
            closer.start();
        };
    }

    @Bean
    OperatorStatus operatorStatus(Manager manager, ObjectProvider<LeaseSettings> lease) {
        LeaseSettings settings = lease.getIfAvailable();
        return new OperatorStatus(manager, settings == null ? "" : settings.identity(),
                settings == null ? "" : settings.lease());
    }

    @Bean
    OperatorLifecycle operatorLifecycle(Manager manager, OperatorProperties properties,
            ObjectProvider<PermissionCheck> permissionCheck) {
        return new OperatorLifecycle(manager, properties.informers(), permissionCheck.getIfAvailable());
    }

    /**
     * What the operator asks the API server for before its informers start: where each controller
     * reconciles, its caches, writes and {@code @Permission}s (and the Events it records, and
     * sharding's label patches); in the Lease's namespace, the leader Lease; in the ring's, the
     * member Leases. The same derivation as the RBAC the build writes ({@link OperatorAccess}).
     */
    @Bean
    @ConditionalOnBooleanProperty(name = "operator.permission-check.enabled", matchIfMissing = true)
    PermissionCheck operatorPermissionCheck(KubernetesClient client, ReconcilerDefinitions definitions,
            OperatorInformers informers, OperatorProperties properties, ObjectProvider<EventBroadcaster> events,
            ObjectProvider<LeaseSettings> lease, ObjectProvider<ShardedReconcilers> sharded) {
        Map<String, AccessRules> needs = new LinkedHashMap<>();
        ShardedReconcilers shards = ShardedReconcilers.of(sharded);
        boolean recording = events.getIfAvailable() != null;
        for (ReconcilerDefinition definition : definitions.all()) {
            AccessRules rules = definition.access();
            if (recording) {
                rules = rules.and(OperatorAccess.events());
            }
            if (shards.isSharded(definition)) {
                rules = rules.and(OperatorAccess.sharded(definition.controllerName(), definition.resource(),
                        definition.ownedResources()));
            }
            for (String namespace : informers.watchedNamespaces(definition)) {
                needs.merge(namespace, rules, AccessRules::and);
            }
        }
        LeaseSettings settings = lease.getIfAvailable();
        if (settings != null && !definitions.all().isEmpty()) {
            needs.merge(settings.namespace(), OperatorAccess.leaderElection(settings.name()), AccessRules::and);
        }
        shards.settings().ifPresent(ring -> needs.merge(ring.namespace(), OperatorAccess.shardMembers(),
                AccessRules::and));
        return new PermissionCheck(client, needs, properties.permissionCheck().timeout());
    }
}

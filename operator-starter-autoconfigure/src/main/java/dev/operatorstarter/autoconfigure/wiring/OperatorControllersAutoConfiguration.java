package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.LeaderElectionCustomizer;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.wiring.ReconcilerRegistrar.ReconcilerDefinitions;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.ManagerBuilder;
import dev.operatorstarter.manager.ManagerOptions;
import dev.operatorstarter.sharding.Sharding;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The controllers and their lifecycle: the runtime's {@link Manager} (informers, events, leader
 * election, sharding), one controller per {@link Reconciler} bean built through its controller
 * builder ({@link ReconcilerControllers}, shaped by every {@link ControllerCustomizer}), the
 * {@link OperatorStatus} view, and the {@link OperatorLifecycle} that starts and closes the manager
 * with the application context (after the {@link PermissionCheck}, when there is one).
 */
@AutoConfiguration(after = { OperatorInformersAutoConfiguration.class, OperatorEventsAutoConfiguration.class,
        OperatorLeaderElectionAutoConfiguration.class, OperatorMetricsAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorControllersAutoConfiguration {

    /** Every {@link Reconciler}'s controller, built through the manager's controller builder before it starts. */
    @Bean
    @ConditionalOnMissingBean
    ReconcilerControllers reconcilerControllers(ConfigurableListableBeanFactory beanFactory, Manager manager,
            ReconcilerDefinitions definitions, OperatorProperties properties,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<ObservationRegistry> observations,
            Environment environment, ObjectProvider<ControllerCustomizer> customizers,
            ObjectProvider<Sharding> sharding, ObjectProvider<ShardSettings> ring) {
        return new ReconcilerControllers(beanFactory, manager, definitions.all(),
                new ReconcilerControllers.Settings(properties, OperatorMetrics.of(metrics),
                        observations.getIfUnique(() -> ObservationRegistry.NOOP), workerThreads(environment),
                        customizers.orderedStream().toList()),
                sharding.getIfAvailable(), ring.getIfAvailable());
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
     * broadcaster, leader election (when {@code operator.leader-election.enabled}), the sharding
     * (when {@code operator.sharding.enabled}) and the resource selectors. The controllers are
     * added by {@link ReconcilerControllers}; {@link OperatorLifecycle} starts and closes it.
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    Manager operatorManager(KubernetesClient client, SharedInformerFactory informers,
            ObjectProvider<EventBroadcaster> events, OperatorProperties properties,
            ConfigurableApplicationContext context, ObjectProvider<LeaseSettings> lease,
            ObjectProvider<OperatorMetrics> metrics, ObjectProvider<LeaderElectionCustomizer> customizers,
            ObjectProvider<Sharding> sharding) {
        ManagerBuilder manager = Manager.builder(client).informers(informers)
                .options(ManagerOptions.builder().cacheSyncTimeout(properties.informers().cacheSyncTimeout())
                        .shutdownTimeout(properties.controllers().shutdownTimeout())
                        .onMissingResource(properties.informers().onMissingCrd())
                        .build());
        events.ifAvailable(manager::events);
        lease.ifAvailable(settings -> {
            OperatorProperties.LeaderElection election = properties.leaderElection();
            manager.leaderElection(LeaseLock.of(client, settings.namespace(), settings.name(), settings.identity()),
                    config -> {
                        config.timing(election.timing()).releaseOnClose(election.releaseOnShutdown())
                                .name(settings.name()).metrics(OperatorMetrics.of(metrics).leaders());
                        customizers.orderedStream().forEach(customizer -> customizer.customize(config));
                        return config;
                    });
            if (election.onLost() == OperatorProperties.OnLost.SHUTDOWN) {
                manager.onLostLeadership(OperatorLifecycle.shutdown(context, "operator-shutdown-after-lost-lease"));
            }
        });
        sharding.ifAvailable(manager::plugin);
        properties.informers().resources().forEach((resource, cache) -> manager.selectors(resource,
                cache.labelSelector(), cache.fieldSelector()));
        return manager.build();
    }

    @Bean
    @ConditionalOnMissingBean
    OperatorStatus operatorStatus(Manager manager, ObjectProvider<LeaseSettings> lease, ObjectProvider<Sharding> sharding) {
        LeaseSettings settings = lease.getIfAvailable();
        return new OperatorStatus(manager, sharding.getIfAvailable(), settings == null ? "" : settings.identity(),
                settings == null ? "" : settings.lease());
    }

    /** Starts the manager once its controllers are built, and closes it with the context. */
    @Bean
    @ConditionalOnMissingBean
    OperatorLifecycle operatorLifecycle(ReconcilerControllers controllers, OperatorProperties properties,
            ObjectProvider<PermissionCheck> permissionCheck) {
        return new OperatorLifecycle(controllers.manager(), properties.informers(), permissionCheck.getIfAvailable());
    }
}

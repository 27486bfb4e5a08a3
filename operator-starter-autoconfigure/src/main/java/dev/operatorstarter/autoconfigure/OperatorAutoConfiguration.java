package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.autoconfigure.ReconcilerRegistrar.ReconcilerDefinitions;
import dev.operatorstarter.autoconfigure.endpoint.OperatorEndpoint;
import dev.operatorstarter.autoconfigure.health.ControllersHealthIndicator;
import dev.operatorstarter.autoconfigure.health.InformersHealthIndicator;
import dev.operatorstarter.autoconfigure.health.LeaderElectionHealthIndicator;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RateLimit;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.event.EventOptions;
import dev.operatorstarter.event.EventRecorder;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.ManagerOptions;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Auto-configuration of the operator runtime: the client, the shared informers, the event
 * recorder, leader election, one controller per {@link Reconciler} bean, their lifecycle,
 * metrics, health and the {@code operator} endpoint. Every bean backs off when the application
 * defines its own.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "operator.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OperatorProperties.class)
public final class OperatorAutoConfiguration {

    @Bean
    static ReconcilerRegistrar operatorReconcilerRegistrar() {
        return new ReconcilerRegistrar();
    }

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

    @Bean
    @ConditionalOnMissingBean
    OperatorMetrics operatorMetrics() {
        return OperatorMetrics.none();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    KubernetesClient kubernetesClient(ClientConfig config, OperatorProperties properties, OperatorMetrics metrics,
            ObjectProvider<KubernetesClientCustomizer> customizers) {
        OperatorProperties.Client client = properties.client();
        ClientOptions.Builder options = ClientOptions.builder().connectTimeout(client.connectTimeout())
                .requestTimeout(client.requestTimeout()).maxRetries(client.maxRetries()).metrics(metrics.requests());
        if (client.qps() > 0) {
            options.rateLimit(new RateLimit(client.qps(), client.burst()));
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(options));
        return KubernetesClient.create(config, options.build());
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SharedInformerFactory sharedInformerFactory(KubernetesClient client, OperatorProperties properties,
            OperatorMetrics metrics, ObjectProvider<InformerCustomizer> customizers) {
        InformerOptions.Builder options = InformerOptions.builder()
                .resyncPeriod(properties.informers().resyncPeriod()).metrics(metrics.reflectors());
        if (!properties.informers().stripManagedFields()) {
            options.transform(UnaryOperator.identity());
        }
        customizers.orderedStream().forEach(customizer -> customizer.customize(options));
        return new SharedInformerFactory(client, options.build());
    }

    @Bean
    OperatorInformers operatorInformers(SharedInformerFactory factory, OperatorProperties properties,
            ReconcilerDefinitions definitions, ConfigurableListableBeanFactory beanFactory) {
        return new OperatorInformers(factory, properties.informers(), definitions.all(),
                beanFactory::resolveEmbeddedValue);
    }

    @Bean
    ReconcilerControllers reconcilerControllers(ConfigurableListableBeanFactory beanFactory,
            OperatorInformers informers, KubernetesClient client, OperatorProperties properties,
            OperatorMetrics metrics, Environment environment, ObjectProvider<ControllerCustomizer> customizers) {
        return new ReconcilerControllers(beanFactory, informers, client, properties, metrics,
                workerThreads(environment), customizers.orderedStream().toList());
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
            ConfigurableApplicationContext context, ObjectProvider<LeaseSettings> lease, OperatorMetrics metrics,
            ObjectProvider<LeaderElectionCustomizer> customizers) {
        Manager.Builder manager = Manager.builder(client).informers(informers)
                .options(ManagerOptions.builder().cacheSyncTimeout(properties.informers().cacheSyncTimeout())
                        .shutdownTimeout(properties.controllers().shutdownTimeout()).build());
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
                        .leaseDuration(election.leaseDuration()).renewDeadline(election.renewDeadline())
                        .retryPeriod(election.retryPeriod()).releaseOnClose(election.releaseOnShutdown())
                        .name(settings.name()).metrics(metrics.leaders());
                customizers.orderedStream().forEach(customizer -> customizer.customize(config));
                return new LeaderElector(config.build());
            });
            if (election.onLost() == OperatorProperties.OnLost.SHUTDOWN) {
                manager.onLostLeadership(() -> {
                    AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
                    Thread closer = new Thread(context::close, "operator-shutdown-after-lost-lease");
                    closer.start();
                });
            }
        }
        Manager built = manager.build();
        for (ReconcilerDefinition definition : definitions.all()) {
            built.add(beanFactory.getBean(definitions.controllerBeans().get(definition.beanName()), Controller.class),
                    definition.resource().getSimpleName());
        }
        return built;
    }

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

    @Bean
    OperatorStatus operatorStatus(Manager manager, ObjectProvider<LeaseSettings> lease) {
        LeaseSettings settings = lease.getIfAvailable();
        return new OperatorStatus(manager, settings == null ? "" : settings.identity(),
                settings == null ? "" : settings.lease());
    }

    @Bean
    OperatorLifecycle operatorLifecycle(Manager manager, OperatorProperties properties) {
        return new OperatorLifecycle(manager, properties.informers());
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "operator.events.enabled", matchIfMissing = true)
    static class Events {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        EventBroadcaster eventBroadcaster(KubernetesClient client, OperatorProperties properties) {
            return new EventBroadcaster(client,
                    EventOptions.builder().queueCapacity(properties.events().queueCapacity()).build());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBooleanProperty(name = "operator.leader-election.enabled", matchIfMissing = true)
    static class LeaderElection {

        /** The elector that gates the controllers; tune it with a {@link LeaderElectionCustomizer}. */
        static final String ELECTOR = "operatorLeaderElector";

        @Bean
        LeaseSettings operatorLeaseSettings(OperatorProperties properties, ClientConfig config,
                Environment environment) {
            return LeaseSettings.of(properties.leaderElection(), config.namespace(),
                    environment.getProperty("spring.application.name"), System.getenv());
        }

        /** The manager's elector, as a bean for applications and tests; the manager runs and closes it. */
        @Bean(name = ELECTOR, destroyMethod = "")
        LeaderElector operatorLeaderElector(Manager manager) {
            return manager.leaderElector().orElseThrow(() -> new IllegalStateException("the Manager bean elects no "
                    + "leader although operator.leader-election.enabled is true"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBooleanProperty(name = "operator.metrics.enabled", matchIfMissing = true)
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean
        OperatorMetrics operatorMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            if (meters == null) {
                return OperatorMetrics.none();
            }
            return new OperatorMetrics(RequestMetrics.micrometer(meters), ReflectorMetrics.micrometer(meters),
                    ControllerMetrics.micrometer(meters), WorkQueueMetrics.micrometer(meters),
                    LeaderMetrics.micrometer(meters));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("operator")
    static class Health {

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
        @ConditionalOnMissingBean(name = "leaderElectionHealthIndicator")
        LeaderElectionHealthIndicator leaderElectionHealthIndicator(OperatorStatus status) {
            return new LeaderElectionHealthIndicator(status);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(OperatorEndpoint.class)
    static class Endpoints {

        @Bean
        @ConditionalOnMissingBean
        OperatorEndpoint operatorEndpoint(OperatorStatus status) {
            return new OperatorEndpoint(status);
        }
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.Finalizers;
import dev.operatorstarter.controller.ControllerBuilder;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.sharding.ShardedResource;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.observation.ObservationRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/** Builds the {@link Controller} of each {@link Reconciler} bean from its definition and the properties. */
final class ReconcilerControllers {

    private final ConfigurableListableBeanFactory beans;
    private final OperatorInformers informers;
    private final KubernetesClient client;
    private final OperatorProperties.Controllers properties;
    private final java.time.Duration cacheSyncTimeout;
    private final OperatorMetrics metrics;
    private final ObservationRegistry observations;
    private final ThreadFactory workerThreads;
    private final List<ControllerCustomizer> customizers;
    private final ShardedReconcilers shards;

    ReconcilerControllers(ConfigurableListableBeanFactory beans, OperatorInformers informers, KubernetesClient client,
            OperatorProperties properties, OperatorMetrics metrics, ObservationRegistry observations,
            ThreadFactory workerThreads, List<ControllerCustomizer> customizers, ShardedReconcilers shards) {
        this.beans = beans;
        this.informers = informers;
        this.client = client;
        this.properties = properties.controllers();
        this.cacheSyncTimeout = properties.informers().cacheSyncTimeout();
        this.metrics = metrics;
        this.observations = observations;
        this.workerThreads = workerThreads;
        this.customizers = List.copyOf(customizers);
        this.shards = shards;
    }

    /** Makes the reconcile workers: virtual threads when Spring Boot's virtual threads are active. */
    ThreadFactory workerThreads() {
        return workerThreads;
    }

    /** The controller of {@code definition}, not started. */
    Controller<?> create(ReconcilerDefinition definition) {
        return create(definition, definition.resource());
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> Controller<T> create(ReconcilerDefinition definition, Class<T> resource) {
        String name = definition.controllerName();
        Reconciler annotation = definition.annotation();
        ControllerOptions.Builder options = ControllerOptions.builder(name)
                .workers(annotation.workers() > 0 ? annotation.workers() : properties.workers())
                .rateLimiter(RateLimiter.maxOf(
                        RateLimiter.exponential(properties.rateLimiter().baseDelay(), properties.rateLimiter().maxDelay()),
                        RateLimiter.bucket(properties.rateLimiter().qps(), properties.rateLimiter().burst(), TimeSource.system())))
                .reconcileTimeout(properties.reconcileTimeout())
                .cacheSyncTimeout(cacheSyncTimeout)
                .readYourWritesTimeout(properties.readYourWritesTimeout())
                .metrics(metrics.controllers())
                .queueMetrics(metrics.queues())
                .observationRegistry(observations)
                .threadFactory(workerThreads);
        customizers.forEach(customizer -> customizer.customize(name, options));
        ResourceType<T> type = ResourceType.of(resource);
        ControllerBuilder<T> builder = Controller.builder(options.build(), type, informers.primaries(definition, resource));
        if (annotation.generationChanged()) {
            builder.withFilter(EventFilter.generationChanged());
        }
        List<SharedIndexInformer<?>> ownedInformers = new ArrayList<>();
        for (Class<? extends HasMetadata> owned : definition.ownedMetadata()) {
            ownedInformers.addAll(informers.metadataSecondaries(definition, owned));
        }
        for (Class<? extends HasMetadata> owned : definition.owned()) {
            ownedInformers.addAll(informers.secondaries(definition, owned));
        }
        ownedInformers.forEach(builder::owns);
        shards.sharding().filter(sharding -> shards.isSharded(definition))
                .ifPresent(sharding -> builder.decoratedBy(decorator(sharding, definition, type, ownedInformers)));
        for (Map.Entry<Class<?>, Class<? extends HasMetadata>> watch : definition.watched().entrySet()) {
            watch(builder, definition, mapper(watch.getKey()), watch.getValue());
        }
        for (Map.Entry<Class<?>, Class<? extends HasMetadata>> watch : definition.watchedMetadata().entrySet()) {
            MetadataRequestMapper<?> mapper = (MetadataRequestMapper<?>) mapper(watch.getKey());
            informers.metadataSecondaries(definition, watch.getValue())
                    .forEach(informer -> builder.watches(informer, mapper::map));
        }
        ReconcileHandler<T> handler = (ReconcileHandler<T>) beans.getBean(definition.beanName());
        if (annotation.finalizer().isEmpty()) {
            return builder.build(handler);
        }
        if (!(handler instanceof Cleaner<?> cleaner)) {
            throw new BeanCreationException(definition.beanName(), "@Reconciler(finalizer = \"" + annotation.finalizer()
                    + "\") needs the bean to implement " + Cleaner.class.getName()
                    + ", which removes what the finalizer protects");
        }
        AtomicReference<Controller<T>> built = new AtomicReference<>();
        ResourceClient<T> resources = client.resources(type);
        Controller<T> controller = builder.build(Finalizers.handler(annotation.finalizer(), handler,
                (Cleaner<T>) cleaner, informers.primaryLister(definition, resource), () -> built.get().tracked(resources)));
        built.set(controller);
        return controller;
    }

    /**
     * Registers {@code definition}'s primary and owned resources, over their unsharded scopes, with
     * {@code sharding} (what its assigner assigns), and returns the decorator that makes the
     * controller this replica's shard's.
     */
    private <T extends HasMetadata> ControllerDecorator<T> decorator(Sharding sharding, ReconcilerDefinition definition,
            ResourceType<T> type, List<SharedIndexInformer<?>> ownedInformers) {
        ShardedResource<T> resource = ShardedResource.of(type, informers.primaryScopes(definition, definition.resource()));
        for (Class<? extends HasMetadata> ownedType : definition.ownedResources()) {
            resource = resource.owning(ResourceType.of(ownedType).groupVersionResource(),
                    informers.secondaryScopes(definition, ownedType));
        }
        try {
            sharding.register(resource);
        } catch (IllegalArgumentException e) {
            throw new InvalidShardingException("the controller " + definition.controllerName() + " of @Reconciler bean '"
                    + definition.beanName() + "' cannot be sharded: " + e.getMessage(), "Leave it out of "
                    + "operator.sharding.controllers, or shard only the controller that owns those objects", e);
        }
        return sharding.decorator(resource, ownedInformers);
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata, O extends HasMetadata> void watch(ControllerBuilder<T> builder,
            ReconcilerDefinition definition, Object mapper, Class<O> watched) {
        RequestMapper<O> typed = (RequestMapper<O>) mapper;
        for (SharedIndexInformer<O> informer : informers.secondaries(definition, watched)) {
            builder.watches(informer, typed::map);
        }
    }

    /** The bean of a mapper class, else an instance created and autowired for this reconciler. */
    private Object mapper(Class<?> type) {
        Object mapper = beans.getBeanProvider(type).getIfAvailable();
        return mapper != null ? mapper : beans.createBean(type);
    }
}

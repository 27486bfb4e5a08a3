package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
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
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.observation.ObservationRegistry;
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

    ReconcilerControllers(ConfigurableListableBeanFactory beans, OperatorInformers informers, KubernetesClient client,
            OperatorProperties properties, OperatorMetrics metrics, ObservationRegistry observations,
            ThreadFactory workerThreads, List<ControllerCustomizer> customizers) {
        this.beans = beans;
        this.informers = informers;
        this.client = client;
        this.properties = properties.controllers();
        this.cacheSyncTimeout = properties.informers().cacheSyncTimeout();
        this.metrics = metrics;
        this.observations = observations;
        this.workerThreads = workerThreads;
        this.customizers = List.copyOf(customizers);
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
        for (Class<? extends HasMetadata> owned : definition.ownedMetadata()) {
            informers.metadataSecondaries(definition, owned).forEach(builder::owns);
        }
        for (Class<? extends HasMetadata> owned : definition.owned()) {
            informers.secondaries(definition, owned).forEach(builder::owns);
        }
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

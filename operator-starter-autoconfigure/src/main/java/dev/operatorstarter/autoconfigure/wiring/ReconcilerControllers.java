package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.manager.ExtensionRefusedException;
import dev.operatorstarter.manager.ManagedControllerBuilder;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Turns each {@link Reconciler} bean and the properties into one call of the runtime's controller
 * builder ({@link Manager#controller}), which applies every scope rule; all of them when this bean
 * is made, before the manager starts. The reconciler and mapper beans are looked up at their first
 * use, so they may inject the listers of the caches the controllers make.
 */
final class ReconcilerControllers {

    /** What every controller's options are built from: the properties, metrics, worker threads and customizers. */
    record Settings(OperatorProperties properties, OperatorMetrics metrics, ObservationRegistry observations,
            ThreadFactory workerThreads, List<ControllerCustomizer> customizers) {
    }

    private final Map<String, Controller<?>> controllers = new LinkedHashMap<>();
    private final Manager manager;
    private final ThreadFactory workerThreads;

    ReconcilerControllers(ConfigurableListableBeanFactory beans, Manager manager, List<ReconcilerDefinition> definitions,
            ReconcilerScopes scopes, Settings settings, @Nullable Sharding sharding, @Nullable ShardSettings ring) {
        this.manager = manager;
        this.workerThreads = settings.workerThreads();
        if (ring != null) {
            ring.requireKnown(definitions.stream().map(ReconcilerDefinition::controllerName).toList());
        }
        for (ReconcilerDefinition definition : definitions) {
            Sharding shards = sharding != null && ring != null && ring.shards(definition.controllerName()) ? sharding : null;
            controllers.put(definition.beanName(), build(beans, manager, definition, definition.resource(), scopes, settings,
                    shards));
        }
    }

    /** The manager the controllers run in. */
    Manager manager() {
        return manager;
    }

    /** Makes the reconcile workers: virtual threads when Spring Boot's virtual threads are active. */
    ThreadFactory workerThreads() {
        return workerThreads;
    }

    /** The controller of the {@code @Reconciler} bean {@code beanName}. */
    Controller<?> controller(String beanName) {
        return controllers.get(beanName);
    }

    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> Controller<T> build(ConfigurableListableBeanFactory beans, Manager manager,
            ReconcilerDefinition definition, Class<T> resource, ReconcilerScopes scopes, Settings settings,
            @Nullable Sharding sharding) {
        Reconciler annotation = definition.annotation();
        ManagedControllerBuilder<T> controller = scopedController(manager, definition, resource, scopes, settings);
        if (annotation.generationChanged()) {
            controller.generationChanged();
        }
        definition.owned().forEach(controller::owns);
        definition.ownedMetadata().forEach(controller::ownsMetadata);
        definition.watched().forEach((mapper, watched) -> watch(controller, mapper(beans, mapper), watched));
        definition.watchedMetadata().forEach((mapper, watched) -> {
            Supplier<Object> bean = mapper(beans, mapper);
            controller.watchesMetadata(watched, object -> ((MetadataRequestMapper<?>) bean.get()).map(object));
        });
        Supplier<ReconcileHandler<T>> handler = SingletonSupplier.of(
                () -> (ReconcileHandler<T>) beans.getBean(definition.beanName()));
        if (!annotation.finalizer().isEmpty()) {
            controller.finalizer(annotation.finalizer(), object -> cleaner(definition, handler.get()).cleanup(object));
        }
        if (sharding != null) {
            controller.extendedBy(sharding);
        }
        try {
            return controller.reconcile(request -> handler.get().reconcile(request));
        } catch (ExtensionRefusedException e) { // only the sharding extends a starter's controller
            throw new InvalidShardingException("the controller " + definition.controllerName() + " of @Reconciler bean '"
                    + definition.beanName() + "' cannot be sharded: " + e.getCause().getMessage(), "Leave it out of "
                    + "operator.sharding.controllers, or shard only the controller that owns those objects");
        }
    }

    /** The builder of {@code definition}'s controller with its options and scope. */
    private static <T extends HasMetadata> ManagedControllerBuilder<T> scopedController(Manager manager,
            ReconcilerDefinition definition, Class<T> resource, ReconcilerScopes scopes, Settings settings) {
        OperatorProperties.Controllers properties = settings.properties().controllers();
        Duration cacheSyncTimeout = settings.properties().informers().cacheSyncTimeout();
        String name = definition.controllerName();
        int workers = definition.annotation().workers() > 0 ? definition.annotation().workers() : properties.workers();
        ManagedControllerBuilder<T> controller = manager.controller(resource).named(name).options(options -> {
            options.workers(workers)
                    .rateLimiter(RateLimiter.maxOf(
                            RateLimiter.exponential(properties.rateLimiter().baseDelay(), properties.rateLimiter().maxDelay()),
                            RateLimiter.bucket(properties.rateLimiter().qps(), properties.rateLimiter().burst(),
                                    TimeSource.system())))
                    .reconcileTimeout(properties.reconcileTimeout()).cacheSyncTimeout(cacheSyncTimeout)
                    .readYourWritesTimeout(properties.readYourWritesTimeout())
                    .metrics(settings.metrics().controllers()).queueMetrics(settings.metrics().queues())
                    .observationRegistry(settings.observations()).threadFactory(settings.workerThreads());
            settings.customizers().forEach(customizer -> customizer.customize(name, options));
        });
        scopes.scope(definition, controller);
        return controller;
    }

    @SuppressWarnings("unchecked")
    private static <O extends HasMetadata> void watch(ManagedControllerBuilder<?> controller, Supplier<Object> mapper,
            Class<O> watched) {
        controller.watches(watched, object -> ((RequestMapper<O>) mapper.get()).map(object));
    }

    /** The reconciler as the cleaner its finalizer needs. */
    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> Cleaner<T> cleaner(ReconcilerDefinition definition, ReconcileHandler<T> handler) {
        if (!(handler instanceof Cleaner<?> cleaner)) {
            throw new BeanCreationException(definition.beanName(), "@Reconciler(finalizer = \""
                    + definition.annotation().finalizer() + "\") needs the bean to implement " + Cleaner.class.getName()
                    + ", which removes what the finalizer protects");
        }
        return (Cleaner<T>) cleaner;
    }

    /** Checks, once the reconciler bean exists, that a reconciler with a finalizer can clean up. */
    @SuppressWarnings({ "unchecked", "rawtypes" })
    static void requireCleaner(ReconcilerDefinition definition, Object bean) {
        if (!definition.annotation().finalizer().isEmpty()) {
            cleaner(definition, (ReconcileHandler) bean);
        }
    }

    /**
     * The bean of a mapper class, else an instance created and autowired for this reconciler; looked
     * up at its first use, so a mapper may inject the listers of the caches the controllers make.
     */
    private static Supplier<Object> mapper(ConfigurableListableBeanFactory beans, Class<?> type) {
        return SingletonSupplier.of(() -> {
            Object mapper = beans.getBeanProvider(type).getIfAvailable();
            return mapper != null ? mapper : beans.createBean(type);
        });
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.autoconfigure.InvalidReconcilerException;
import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.manager.ExtensionRefusedException;
import dev.operatorstarter.manager.ManagedControllerBuilder;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.micrometer.observation.ObservationRegistry;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Turns each {@link Reconciler} bean and the properties into one call of the runtime's controller
 * builder ({@link Manager#controller}), which applies every scope rule; all of them when this bean
 * is made, before the manager starts. Annotation values have their placeholders resolved. The
 * reconciler and mapper beans are looked up at their first use, so they may inject the listers of
 * the caches the controllers make.
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
            Settings settings, @Nullable Sharding sharding, @Nullable ShardSettings ring) {
        this.manager = manager;
        this.workerThreads = settings.workerThreads();
        if (ring != null) {
            ring.requireKnown(definitions.stream().map(ReconcilerDefinition::controllerName).toList());
        }
        for (ReconcilerDefinition definition : definitions) {
            boolean sharded = sharding != null && ring != null && ring.shards(definition.controllerName());
            controllers.put(definition.beanName(), build(beans, definition, definition.resource(), settings,
                    sharded ? sharding : null));
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

    /**
     * The namespaces {@code definition} watches its namespaced resources in: the annotation's, else
     * {@code operator.informers.namespaces}; [""] for all.
     */
    static List<String> namespaces(ReconcilerDefinition definition, OperatorProperties.Informers properties,
            UnaryOperator<String> placeholders) {
        List<String> named = Arrays.stream(definition.annotation().namespaces())
                .flatMap(value -> Arrays.stream(resolve(placeholders, value).split(","))).map(String::strip)
                .filter(each -> !each.isEmpty()).distinct().toList();
        if (named.isEmpty()) {
            named = properties.namespaces().stream().map(String::strip).filter(each -> !each.isEmpty()).distinct().toList();
        }
        return named.isEmpty() ? List.of("") : named;
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> Controller<T> build(ConfigurableListableBeanFactory beans,
            ReconcilerDefinition definition, Class<T> resource, Settings settings, @Nullable Sharding sharding) {
        Reconciler annotation = definition.annotation();
        OperatorProperties.Informers informers = settings.properties().informers();
        UnaryOperator<String> placeholders = beans::resolveEmbeddedValue;
        String selector = resolve(placeholders, annotation.labelSelector());
        ManagedControllerBuilder<T> controller = manager.controller(resource).named(definition.controllerName())
                .options(options -> options(definition, settings, options))
                .namespaces(namespaces(definition, informers, placeholders))
                .labelSelector(selector.isEmpty() ? informers.labelSelector().strip() : selector)
                .ownedLabelSelector(resolve(placeholders, annotation.ownedLabelSelector()));
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
        if (!annotation.finalizer().isEmpty()) { // the definition checked that the bean's type is a Cleaner
            controller.finalizer(annotation.finalizer(), object -> ((Cleaner<T>) handler.get()).cleanup(object));
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
        } catch (IllegalArgumentException e) {
            throw new InvalidReconcilerException(definition.beanName(), "", "cannot become a controller: "
                    + e.getMessage(), "correct the @Reconciler attributes or the operator.* properties it names");
        }
    }

    /** {@code definition}'s options: the properties, the annotation's workers, then the customizers. */
    private static void options(ReconcilerDefinition definition, Settings settings,
            ControllerOptions.Builder options) {
        OperatorProperties.Controllers properties = settings.properties().controllers();
        OperatorProperties.RateLimiter limits = properties.rateLimiter();
        int workers = definition.annotation().workers();
        options.workers(workers > 0 ? workers : properties.workers())
                .rateLimiter(RateLimiter.maxOf(RateLimiter.exponential(limits.baseDelay(), limits.maxDelay()),
                        RateLimiter.bucket(limits.qps(), limits.burst(), TimeSource.system())))
                .reconcileTimeout(properties.reconcileTimeout())
                .cacheSyncTimeout(settings.properties().informers().cacheSyncTimeout())
                .readYourWritesTimeout(properties.readYourWritesTimeout())
                .metrics(settings.metrics().controllers()).queueMetrics(settings.metrics().queues())
                .observationRegistry(settings.observations()).threadFactory(settings.workerThreads());
        settings.customizers().forEach(customizer -> customizer.customize(definition.controllerName(), options));
    }

    @SuppressWarnings("unchecked")
    private static <O extends HasMetadata> void watch(ManagedControllerBuilder<?> controller, Supplier<Object> mapper,
            Class<O> watched) {
        controller.watches(watched, object -> ((RequestMapper<O>) mapper.get()).map(object));
    }

    /**
     * The bean of a mapper class, else an instance created and autowired for this reconciler; looked
     * up at its first use, so a mapper may inject the listers of the caches the controllers make.
     */
    private static Supplier<Object> mapper(ConfigurableListableBeanFactory beans, Class<?> type) {
        return SingletonSupplier.of(() -> Objects.requireNonNullElseGet(beans.getBeanProvider(type).getIfAvailable(),
                () -> beans.createBean(type)));
    }

    private static String resolve(UnaryOperator<String> placeholders, String value) {
        return Stream.ofNullable(placeholders.apply(value)).map(String::strip).findFirst().orElse("");
    }
}

package dev.operatorstarter.controller;

import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Describes a controller before it is built: its primary informers, which of their
 * notifications count ({@link #withFilter}), and the other resources whose changes reconcile a
 * primary ({@link #owns}, {@link #watches}). Start with {@link Controller#builder}. Not
 * thread-safe; {@link #build} copies what it was told, so the builder can be reused.
 */
public final class ControllerBuilder<T extends HasMetadata> {

    final ControllerOptions options;
    final ResourceType<T> type;
    final List<SharedIndexInformer<T>> primaries;
    EventFilter<T> filter = EventFilter.all();
    final List<Watch<?>> watches = new ArrayList<>();
    final List<ControllerDecorator<T>> decorators = new ArrayList<>();
    final WriteTracker writes;

    ControllerBuilder(ControllerOptions options, ResourceType<T> type, List<SharedIndexInformer<T>> primaries) {
        this.options = Objects.requireNonNull(options, "options");
        this.type = Objects.requireNonNull(type, "type");
        if (primaries.isEmpty()) {
            throw new IllegalArgumentException("a controller needs at least one primary informer");
        }
        this.primaries = List.copyOf(primaries);
        this.writes = new WriteTracker(type);
    }

    /** Only primary notifications that pass {@code filter} become requests. */
    public ControllerBuilder<T> withFilter(EventFilter<T> filter) {
        this.filter = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /**
     * Reconciles the controlling owner (an owner reference with {@code controller: true} of
     * the primary's kind and group) whenever an object {@code owned} caches changes or is deleted
     * ({@link OwnerReferences#controllerRequests}).
     */
    public <O extends HasMetadata> ControllerBuilder<T> owns(SharedIndexInformer<O> owned) {
        return watches(owned, object -> OwnerReferences.controllerRequests(object, type));
    }

    /** Reconciles the requests {@code mapper} derives from each object {@code informer} caches. */
    public <O extends HasMetadata> ControllerBuilder<T> watches(SharedIndexInformer<O> informer,
            Function<O, Collection<ReconcileRequest>> mapper) {
        watches.add(new Watch<>(Objects.requireNonNull(informer, "informer"), Objects.requireNonNull(mapper, "mapper")));
        return this;
    }

    /**
     * Wraps the filter and the handler with {@code decorator} when the controller is built; a
     * decorator given later wraps the ones given before.
     */
    public ControllerBuilder<T> decoratedBy(ControllerDecorator<T> decorator) {
        decorators.add(Objects.requireNonNull(decorator, "decorator"));
        return this;
    }

    /**
     * {@code client}, recording every successful write for the read-your-own-writes of the
     * controller this builder builds ({@link Controller#tracked}), for a handler made before the
     * controller (a finalizer's). Controllers built from one builder share the record.
     */
    public <R extends HasMetadata> ResourceClient<R> tracked(ResourceClient<R> client) {
        return new TrackingResourceClient<>(client, writes);
    }

    /** The controller, which runs {@code handler}; it starts nothing until {@link Controller#start()}. */
    public Controller<T> build(ReconcileHandler<T> handler) {
        return new Controller<>(this, Objects.requireNonNull(handler, "handler"));
    }
}

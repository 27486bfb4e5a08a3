package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Optional;
import java.util.function.Function;

/**
 * Wraps a controller's event filter and reconcile handler when it is built
 * ({@link ControllerBuilder#decoratedBy}), for behaviour that belongs to how a controller runs
 * rather than to what it reconciles: sharding's drain acknowledgement is one. The handler it
 * returns is the outermost, so it runs before the finalizer handling and the user's code, inside
 * the worker (counted, timed and retried as any reconcile).
 *
 * @param <T> the primary resource's class
 */
public interface ControllerDecorator<T extends HasMetadata> {

    /** The filter the controller uses instead of {@code filter}; by default {@code filter} itself. */
    default EventFilter<T> filter(EventFilter<T> filter) {
        return filter;
    }

    /**
     * The handler the controller runs instead of {@code handler}; by default {@code handler} itself.
     *
     * @param cache the primary object of a request as the controller's informers have it
     */
    default ReconcileHandler<T> handler(ReconcileHandler<T> handler, Function<ReconcileRequest, Optional<T>> cache) {
        return handler;
    }
}

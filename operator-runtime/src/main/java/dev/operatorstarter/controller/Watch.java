package dev.operatorstarter.controller;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.function.Function;

/**
 * A secondary source of requests: every notification of {@code informer} (old and new object on
 * an update) is mapped to the requests to reconcile (controller-runtime's
 * {@code handler.EnqueueRequestsFromMapFunc}).
 */
record Watch<O extends HasMetadata>(SharedIndexInformer<O> informer, Function<O, Collection<ReconcileRequest>> mapper) {

    /** Feeds {@code target} from the informer until the registration is removed. */
    HandlerRegistration register(RateLimitingQueue<ReconcileRequest> target) {
        return informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(O object, boolean isInInitialList) {
                enqueueAll(object);
            }

            @Override
            public void onUpdate(O oldObject, O newObject) {
                enqueueAll(oldObject);
                enqueueAll(newObject);
            }

            @Override
            public void onDelete(O object, boolean finalStateUnknown) {
                enqueueAll(object);
            }

            private void enqueueAll(O object) {
                mapper.apply(object).forEach(target::add);
            }
        });
    }
}

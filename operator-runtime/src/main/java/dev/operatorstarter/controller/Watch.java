package dev.operatorstarter.controller;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.workqueue.PriorityQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Function;

/**
 * A secondary source of requests: every notification of {@code informer} (old and new object on
 * an update) is mapped to the requests to reconcile (controller-runtime's
 * {@code handler.EnqueueRequestsFromMapFunc}). As for the primary objects, the initial list and
 * resyncs are queued at {@link PriorityQueue#LOW}, the rest at {@link PriorityQueue#NORMAL}.
 */
record Watch<O extends HasMetadata>(SharedIndexInformer<O> informer, Function<O, Collection<ReconcileRequest>> mapper) {

    /** Feeds {@code target} from the informer until the registration is removed. */
    HandlerRegistration register(PriorityQueue<ReconcileRequest> target) {
        return informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(O object, boolean isInInitialList) {
                enqueueAll(object, priorityOfAdd(isInInitialList));
            }

            @Override
            public void onUpdate(O oldObject, O newObject) {
                int priority = priorityOfUpdate(oldObject, newObject);
                enqueueAll(oldObject, priority);
                enqueueAll(newObject, priority);
            }

            @Override
            public void onDelete(O object, boolean finalStateUnknown) {
                enqueueAll(object, PriorityQueue.NORMAL);
            }

            private void enqueueAll(O object, int priority) {
                for (ReconcileRequest request : mapper.apply(object)) {
                    target.add(request, priority);
                }
            }
        });
    }

    /** {@link PriorityQueue#LOW} for an object of the informer's initial list, else {@code NORMAL} (controller-runtime's rule). */
    static int priorityOfAdd(boolean isInInitialList) {
        return isInInitialList ? PriorityQueue.LOW : PriorityQueue.NORMAL;
    }

    /**
     * {@link PriorityQueue#LOW} for a resync (both versions have the same resource version: nothing
     * changed), else {@code NORMAL} (controller-runtime's rule).
     */
    static int priorityOfUpdate(HasMetadata oldObject, HasMetadata newObject) {
        String before = oldObject.getMetadata() == null ? null : oldObject.getMetadata().getResourceVersion();
        String after = newObject.getMetadata() == null ? null : newObject.getMetadata().getResourceVersion();
        return before != null && Objects.equals(before, after) ? PriorityQueue.LOW : PriorityQueue.NORMAL;
    }
}

package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Clean-up that owner references cannot do (for example removing something outside the
 * cluster), run before a finalizer is removed: see {@link Finalizers#handler}. With the Spring
 * starter, a {@code @Reconciler(finalizer = ...)} bean implements it.
 *
 * <p>Called, instead of the reconcile, for an object that is being deleted and still carries the
 * finalizer. When it returns, the finalizer is removed and Kubernetes completes the deletion;
 * when it throws, it is retried with the controller's backoff and the object stays. It must be
 * idempotent: it may run again after a crash before the finalizer was removed.
 */
@FunctionalInterface
public interface Cleaner<T extends HasMetadata> {

    void cleanup(T object) throws Exception;
}

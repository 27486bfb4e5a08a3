package dev.operatorstarter.controller;

import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.ResourceClient;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Finalizers on an object's metadata. The methods change the object in memory and say whether
 * they did; write it afterwards (update, or a patch of {@code metadata.finalizers}).
 */
public final class Finalizers {

    private Finalizers() {
    }

    public static boolean has(HasMetadata object, String finalizer) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        return finalizers != null && finalizers.contains(finalizer);
    }

    /** Adds {@code finalizer} unless present; true if added. */
    public static boolean add(HasMetadata object, String finalizer) {
        if (finalizer == null || finalizer.isBlank()) {
            throw new IllegalArgumentException("a finalizer needs a name");
        }
        if (has(object, finalizer)) {
            return false;
        }
        List<String> finalizers = object.getMetadata().getFinalizers() == null ? new ArrayList<>()
                : new ArrayList<>(object.getMetadata().getFinalizers());
        finalizers.add(finalizer);
        object.getMetadata().setFinalizers(finalizers);
        return true;
    }

    /** Removes {@code finalizer}; true if it was there. */
    public static boolean remove(HasMetadata object, String finalizer) {
        if (!has(object, finalizer)) {
            return false;
        }
        List<String> finalizers = new ArrayList<>(object.getMetadata().getFinalizers());
        finalizers.removeIf(finalizer::equals);
        object.getMetadata().setFinalizers(finalizers);
        return true;
    }

    /** True once deletion was requested (the object stays until every finalizer is removed). */
    public static boolean isBeingDeleted(HasMetadata object) {
        return object.getMetadata().getDeletionTimestamp() != null;
    }

    /**
     * {@code reconciler}, guarded by {@code finalizer} (controller-runtime's finalizer helper): the
     * handler adds the finalizer before the first reconcile of an object; when the object is being
     * deleted and still carries it, runs {@code cleaner} instead of the reconcile and then removes
     * the finalizer, so Kubernetes completes the deletion. Finalizer changes are merge patches that
     * carry the object's resourceVersion: a concurrent change makes them fail with a conflict (a
     * retried error) instead of overwriting another controller's finalizer. A cleaner that throws
     * is retried with the controller's backoff, and the object stays.
     *
     * @param cache the primary's cache (the object is read from it, never from the API)
     * @param client where the finalizer patches go; pass the controller's
     *     {@linkplain Controller#tracked tracked} client so the next reconcile waits for the patch
     *     to reach the cache
     */
    public static <T extends HasMetadata> ReconcileHandler<T> handler(String finalizer, ReconcileHandler<T> reconciler,
            Cleaner<T> cleaner, Lister<T> cache, Supplier<ResourceClient<T>> client) {
        if (finalizer == null || finalizer.isBlank()) {
            throw new IllegalArgumentException("a finalizer needs a name");
        }
        return new FinalizingHandler<>(finalizer, Objects.requireNonNull(reconciler, "reconciler"),
                Objects.requireNonNull(cleaner, "cleaner"), Objects.requireNonNull(cache, "cache"),
                Objects.requireNonNull(client, "client"));
    }
}

package dev.operatorstarter.controller;

import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Wraps a reconciler that owns a finalizer ({@link Finalizers#handler}): adds the finalizer before the
 * first reconcile of an object, and on deletion runs the {@link Cleaner} and then removes the
 * finalizer. Finalizer changes are merge patches that carry the object's resourceVersion, so a
 * concurrent change makes them fail with a conflict (retried) instead of overwriting another
 * controller's finalizer. The cleaner may run more than once for one deletion (a reconcile on a
 * cache that has not seen the finalizer go); removing the finalizer of an object that is already
 * gone is not an error.
 */
final class FinalizingHandler<T extends HasMetadata> implements ReconcileHandler<T> {

    private final String finalizer;
    private final ReconcileHandler<T> reconciler;
    private final Cleaner<T> cleaner;
    private final Lister<T> cache;
    private final Supplier<ResourceClient<T>> client;

    FinalizingHandler(String finalizer, ReconcileHandler<T> reconciler, Cleaner<T> cleaner, Lister<T> cache,
            Supplier<ResourceClient<T>> client) {
        this.finalizer = finalizer;
        this.reconciler = reconciler;
        this.cleaner = cleaner;
        this.cache = cache;
        this.client = client;
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) throws Exception {
        Optional<T> cached = request.namespace().isEmpty() ? cache.get(request.name())
                : cache.namespace(request.namespace()).get(request.name());
        if (cached.isEmpty()) {
            return reconciler.reconcile(request); // gone: the reconciler may still clean up its own state
        }
        T object = cached.get();
        if (Finalizers.isBeingDeleted(object)) {
            if (Finalizers.has(object, finalizer)) {
                cleaner.cleanup(object);
                try {
                    writeFinalizers(request, object, without(object));
                } catch (ApiException.NotFound gone) {
                    // an earlier reconcile let it go and the cache had not caught up: gone is what removing
                    // the finalizer was for (client.IgnoreNotFound in controller-runtime's terms)
                }
            }
            return ReconcileResult.done();
        }
        if (!Finalizers.has(object, finalizer)) {
            List<String> finalizers = new ArrayList<>(current(object));
            finalizers.add(finalizer);
            writeFinalizers(request, object, finalizers);
        }
        return reconciler.reconcile(request);
    }

    private List<String> without(T object) {
        List<String> finalizers = new ArrayList<>(current(object));
        finalizers.remove(finalizer);
        return finalizers;
    }

    private static List<String> current(HasMetadata object) {
        List<String> finalizers = object.getMetadata().getFinalizers();
        return finalizers == null ? List.of() : finalizers;
    }

    private void writeFinalizers(ReconcileRequest request, T object, List<String> finalizers) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("resourceVersion", object.getMetadata().getResourceVersion());
        metadata.put("finalizers", finalizers);
        ResourceClient<T> resources = client.get();
        if (!request.namespace().isEmpty()) {
            resources = resources.inNamespace(request.namespace());
        }
        resources.patch(request.name(), PatchType.MERGE, Map.of("metadata", metadata));
    }
}

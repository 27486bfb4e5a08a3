package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;

/**
 * Maps a change to a watched object to the requests of a {@link Reconciler} that must look again
 * (controller-runtime's {@code handler.EnqueueRequestsFromMapFunc}). Named in
 * {@link Reconciler#watches()}; {@code O} is the watched resource.
 *
 * <p>Runs on the informer's notification thread for each add, update (old and new object) and
 * delete: read only the object and the caches, never call the API server.
 */
@FunctionalInterface
public interface RequestMapper<O extends HasMetadata> {

    Collection<ReconcileRequest> map(O object);
}

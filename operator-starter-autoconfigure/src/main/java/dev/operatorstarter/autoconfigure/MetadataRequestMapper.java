package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.Collection;

/**
 * Maps a change to a watched object, cached as metadata only, to the requests of a
 * {@link Reconciler} that must look again (controller-runtime's {@code Watches(obj, handler,
 * builder.OnlyMetadata)}). Named in {@link Reconciler#watchesMetadata()}; {@code O} is the watched
 * resource, while {@link #map} receives its {@link PartialObjectMetadata}: names, labels,
 * annotations, owner references; no data, spec or status.
 *
 * <pre>{@code
 * class SecretsToWidgets implements MetadataRequestMapper<Secret> {
 *     public Collection<ReconcileRequest> map(PartialObjectMetadata secret) { ... }
 * }
 * }</pre>
 *
 * <p>Runs on the informer's notification thread for each add, update (old and new object) and
 * delete: read only the object and the caches, never call the API server.
 */
@FunctionalInterface
public interface MetadataRequestMapper<O extends HasMetadata> {

    Collection<ReconcileRequest> map(PartialObjectMetadata object);
}

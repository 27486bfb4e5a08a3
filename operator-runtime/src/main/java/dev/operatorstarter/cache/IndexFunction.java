package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;

/**
 * Computes the values under which an object is indexed (client-go's {@code IndexFunc}). An object
 * may have any number of values, including none. Must be a pure function of the object: it is
 * called again with the old object on update and delete to remove stale entries.
 */
@FunctionalInterface
public interface IndexFunction<T> {

    /** The name of the index every informer and {@link Indexer#create()} store has. */
    String NAMESPACE = "namespace";

    Collection<String> values(T object);

    /** Indexes objects by {@code metadata.namespace} (cluster-scoped objects: not indexed). */
    static <T extends HasMetadata> IndexFunction<T> byNamespace() {
        return object -> {
            String namespace = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
            return namespace == null || namespace.isEmpty() ? List.of() : List.of(namespace);
        };
    }
}

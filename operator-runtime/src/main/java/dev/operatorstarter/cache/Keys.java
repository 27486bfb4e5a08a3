package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * Cache keys: {@code namespace/name} for namespaced objects, {@code name} for cluster-scoped ones
 * (client-go's {@code MetaNamespaceKeyFunc}). Every store, FIFO and lister in this package keys
 * objects this way, and work queues receive the same strings.
 */
public final class Keys {

    private Keys() {
    }

    /** The key of {@code object}; fails when it has no name. */
    public static String of(HasMetadata object) {
        ObjectMeta meta = object.getMetadata();
        if (meta == null || meta.getName() == null || meta.getName().isEmpty()) {
            throw new IllegalArgumentException("a " + object.getKind() + " without metadata.name has no cache key");
        }
        return of(meta.getNamespace(), meta.getName());
    }

    /** The key of the object {@code name} in {@code namespace} (null or empty for cluster-scoped). */
    public static String of(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /** The namespace part of {@code key}, or "" for a cluster-scoped key. */
    public static String namespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash);
    }

    /** The name part of {@code key}. */
    public static String name(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? key : key.substring(slash + 1);
    }
}

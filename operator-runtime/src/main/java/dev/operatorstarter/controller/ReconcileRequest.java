package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;

/**
 * What to reconcile: an object's namespace ("" when cluster-scoped) and name. A request carries
 * no object on purpose: the reconciler reads the current state, so it never acts on a stale copy.
 */
public record ReconcileRequest(String namespace, String name) {

    public ReconcileRequest {
        namespace = namespace == null ? "" : namespace;
        Objects.requireNonNull(name, "name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("a request needs a name");
        }
    }

    /** The request for {@code object}. */
    public static ReconcileRequest of(HasMetadata object) {
        return new ReconcileRequest(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    /** The cache key: {@code namespace/name}, or {@code name} when cluster-scoped. */
    public String key() {
        return namespace.isEmpty() ? name : namespace + "/" + name;
    }

    @Override
    public String toString() {
        return key();
    }
}

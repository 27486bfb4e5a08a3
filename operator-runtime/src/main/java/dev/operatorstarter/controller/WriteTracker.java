package dev.operatorstarter.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers the resourceVersion of this controller's last successful write to each primary
 * object, so that the next reconcile waits until the cache has caught up with it ("read your own
 * writes"). Writes go through {@link Controller#tracked} clients, or are recorded by hand with
 * {@link #written}.
 */
public final class WriteTracker {

    private final Map<Request, Long> versions = new ConcurrentHashMap<>();

    /** Records a successful write; {@code written} is the object as the server returned it. */
    public void written(HasMetadata written) {
        Long version = numeric(written.getMetadata().getResourceVersion());
        if (version != null) {
            versions.merge(Request.of(written), version, Math::max);
        }
    }

    /** Forgets {@code request} (its object was deleted). */
    void forget(Request request) {
        versions.remove(request);
    }

    /**
     * True when {@code cached} (the cache's copy, or null when absent) is older than the last
     * write; forgets the write once the cache has caught up.
     */
    boolean isStale(Request request, Optional<? extends HasMetadata> cached) {
        Long written = versions.get(request);
        if (written == null || cached.isEmpty()) {
            return false;
        }
        Long seen = numeric(cached.get().getMetadata().getResourceVersion());
        if (seen == null || seen >= written) {
            versions.remove(request, written);
            return false;
        }
        return true;
    }

    /** resourceVersions are opaque; etcd's are numbers, and only those can be ordered. */
    private static Long numeric(String version) {
        if (version == null) {
            return null;
        }
        try {
            return Long.parseLong(version);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

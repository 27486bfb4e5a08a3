package dev.operatorstarter.controller;

import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Remembers the resourceVersion of this controller's last successful write to each primary
 * object, so that the next reconcile waits until the cache has caught up with it ("read your own
 * writes"). Writes go through {@link Controller#tracked} clients, or are recorded by hand with
 * {@link #written}.
 *
 * <p>Writes are told apart by type as well as by namespace and name: only a write to an object of
 * the primary's group and kind is recorded, so writing a same-named object of another type (the
 * ConfigMap "foo" that the primary "foo" owns) never makes the primary look stale. Writes to other
 * types are not kept at all: nothing would read them, or forget them.
 */
public final class WriteTracker {

    private final String group;
    private final @Nullable String kind;
    private final Map<ReconcileRequest, Long> versions = new ConcurrentHashMap<>();

    /** Tracks writes to objects of {@code primary}. */
    WriteTracker(ResourceType<?> primary) {
        this.group = primary.group();
        this.kind = primary.kind() != null ? primary.kind() : HasMetadata.getKind(primary.javaClass());
    }

    /**
     * Records a successful write; {@code written} is the object as the server returned it. A write
     * to an object that is not of the primary's group and kind (judged by its {@code apiVersion}
     * and {@code kind}, or its class's annotations when they are unset) is ignored.
     */
    public void written(HasMetadata written) {
        String writtenKind = written.getKind() != null ? written.getKind() : HasMetadata.getKind(written.getClass());
        String writtenGroup = written.getApiVersion() != null ? groupOf(written.getApiVersion())
                : Objects.requireNonNullElse(HasMetadata.getGroup(written.getClass()), "");
        record(writtenGroup, writtenKind, written);
    }

    /** Records a successful write through a client of {@code type}. */
    void written(ResourceType<?> type, HasMetadata written) {
        if (type.kind() == null) {
            written(written); // a dynamic client without a kind: judge by the object
        } else {
            record(type.group(), type.kind(), written);
        }
    }

    private void record(String writtenGroup, @Nullable String writtenKind, HasMetadata written) {
        if (!group.equals(writtenGroup) || !Objects.equals(kind, writtenKind)) {
            return;
        }
        Long version = numeric(written.getMetadata().getResourceVersion());
        if (version != null) {
            versions.merge(ReconcileRequest.of(written), version, Math::max);
        }
    }

    /** Forgets {@code request} (its object was deleted). */
    void forget(ReconcileRequest request) {
        versions.remove(request);
    }

    /**
     * True when {@code cached} (the cache's copy of the primary, or null when absent) is older
     * than the last write; forgets the write once the cache has caught up.
     */
    boolean isStale(ReconcileRequest request, Optional<? extends HasMetadata> cached) {
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

    private static String groupOf(String apiVersion) {
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    /** resourceVersions are opaque; etcd's are numbers, and only those can be ordered. */
    private static @Nullable Long numeric(@Nullable String version) {
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

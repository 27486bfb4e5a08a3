package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.function.UnaryOperator;

/**
 * Transforms an informer applies to objects before caching them (client-go's
 * {@code TransformFunc}). They change the freshly decoded object in place, before anyone else
 * sees it.
 */
public final class Transforms {

    private Transforms() {
    }

    /**
     * The informers' default: {@link #stripManagedFields()}, then {@link #compact()}. Each call makes
     * a transform with its own pool of shared values; informers built from one
     * {@link InformerOptions} share it.
     */
    public static <T extends HasMetadata> UnaryOperator<T> defaults() {
        Compaction compaction = new Compaction(new Interner());
        return object -> compaction.apply(stripFields(object));
    }

    /**
     * Makes each object smaller without changing what it reads as (a Pod without its managedFields
     * takes about a third of the heap it took before):
     * <ul>
     * <li>strings that repeat across objects, anywhere in the object, and boxed numbers become one
     *     shared instance each, from a bounded pool that belongs to the returned transform (it
     *     starts afresh when full, so its size never grows with the cache); a field whose values
     *     turn out unique (Pod IPs, container IDs) stops being pooled;
     * <li>lists and maps become exactly sized read-only ones, all empty ones one shared instance
     *     (a Pod holds dozens of empty lists and {@code additionalProperties} maps);
     * <li>string lists and string maps that repeat whole (the labels of a ReplicaSet's Pods) become
     *     one shared instance.
     * </ul>
     * Cached objects are read-only anyway; this makes a stray {@code getLabels().put(..)} on one
     * fail with {@link UnsupportedOperationException} instead of silently changing the cache. Copy
     * with the model's builder ({@code new PodBuilder(cached).build()}) before changing an object:
     * the copy gets its own lists and maps. Of a custom resource class outside the fabric8 model
     * packages only the metadata is compacted.
     */
    public static <T extends HasMetadata> UnaryOperator<T> compact() {
        Compaction compaction = new Compaction(new Interner());
        return compaction::apply;
    }

    /** Leaves objects as decoded. */
    public static <T> UnaryOperator<T> none() {
        return object -> object;
    }

    /**
     * Drops {@code metadata.managedFields}: server-side apply bookkeeping that controllers rarely
     * read and that is often the largest part of a small object.
     */
    public static <T extends HasMetadata> UnaryOperator<T> stripManagedFields() {
        return Transforms::stripFields;
    }

    private static <T extends HasMetadata> T stripFields(T object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }
}

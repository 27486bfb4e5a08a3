package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * The informers' default: {@link #stripManagedFields()}, {@link #shareMetadataStrings()} and
     * {@link #shareEmptyMaps()}. Each call makes a transform with its own string pool; informers
     * built from one {@link InformerOptions} share it.
     */
    public static <T extends HasMetadata> UnaryOperator<T> defaults() {
        StringPool pool = new StringPool();
        return object -> {
            shareStrings(stripFields(object), pool);
            EmptyMapSharing.apply(object);
            return object;
        };
    }

    /**
     * Replaces the empty {@code additionalProperties} map of every fabric8 model object inside
     * the object with one shared immutable empty map (a Pod holds some 45 of them). Cached
     * objects are read-only anyway; this makes {@code getAdditionalProperties().put(..)} on them
     * fail instead of silently changing the cache. Copy with the model's builder before changing
     * an object: the copy gets its own maps.
     */
    public static <T extends HasMetadata> UnaryOperator<T> shareEmptyMaps() {
        return object -> {
            EmptyMapSharing.apply(object);
            return object;
        };
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

    /**
     * Replaces metadata strings that repeat across objects (namespace, label and annotation keys,
     * label values, owner kinds and API versions, finalizers) with one shared instance each, from a
     * bounded pool that belongs to the returned transform.
     */
    public static <T extends HasMetadata> UnaryOperator<T> shareMetadataStrings() {
        StringPool pool = new StringPool();
        return object -> shareStrings(object, pool);
    }

    private static <T extends HasMetadata> T stripFields(T object) {
        if (object.getMetadata() != null) {
            object.getMetadata().setManagedFields(null);
        }
        return object;
    }

    private static <T extends HasMetadata> T shareStrings(T object, StringPool pool) {
        ObjectMeta meta = object.getMetadata();
        if (meta == null) {
            return object;
        }
        meta.setNamespace(pool.share(meta.getNamespace()));
        meta.setLabels(shareMap(meta.getLabels(), true, pool));
        meta.setAnnotations(shareMap(meta.getAnnotations(), false, pool));
        List<OwnerReference> owners = meta.getOwnerReferences();
        if (owners != null) {
            for (OwnerReference owner : owners) {
                owner.setApiVersion(pool.share(owner.getApiVersion()));
                owner.setKind(pool.share(owner.getKind()));
            }
        }
        List<String> finalizers = meta.getFinalizers();
        if (finalizers != null) {
            finalizers.replaceAll(pool::share);
        }
        return object;
    }

    private static Map<String, String> shareMap(Map<String, String> map, boolean values, StringPool pool) {
        if (map == null || map.isEmpty()) {
            return map;
        }
        Map<String, String> shared = new LinkedHashMap<>(map.size() * 4 / 3 + 1);
        map.forEach((key, value) -> shared.put(pool.share(key), values ? pool.share(value) : value));
        return shared;
    }
}

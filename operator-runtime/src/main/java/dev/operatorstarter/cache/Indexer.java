package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A thread-safe store of objects by {@link Keys cache key}, with named secondary indexes (client-go's
 * {@code cache.Indexer} over its {@code threadSafeMap}).
 *
 * <p>Guarantees: every method is atomic with respect to the others, so a reader never sees an
 * object without its index entries or an index entry without its object. Lists returned are
 * snapshots the caller owns. Objects are returned as stored, not copied: treat them as read-only
 * (change a copy before writing it to the API server), because every reader shares them.
 *
 * <p>On error: a write whose index values cannot be computed (an {@link IndexFunction} throws or
 * returns null) throws {@link IndexFunctionException} and changes nothing, neither the object
 * nor any index. A deletion always succeeds.
 *
 * <p>Every store made by {@link #create()} has the {@link IndexFunction#NAMESPACE} index.
 */
public interface Indexer<T extends HasMetadata> {

    /** A store with the namespace index. */
    static <T extends HasMetadata> Indexer<T> create() {
        return new LockingIndexer<>(Map.of(IndexFunction.NAMESPACE, IndexFunction.byNamespace()));
    }

    /**
     * Adds or replaces the object under its key.
     *
     * @throws IndexFunctionException if an index function fails on it (nothing is changed)
     */
    void add(T object);

    /** Same as {@link #add}. */
    void update(T object);

    /** Removes the object with {@code object}'s key, if present. */
    void delete(T object);

    /**
     * Replaces the whole content with {@code objects}.
     *
     * @throws IndexFunctionException if an index function fails on one of them (nothing is changed)
     */
    void replace(Collection<? extends T> objects);

    /** The object with this key. */
    Optional<T> get(String key);

    /** Every object, in no particular order. */
    List<T> list();

    /** Every key. */
    List<String> listKeys();

    /** The number of objects. */
    int size();

    /**
     * Adds indexes. They are filled from the current content at once.
     *
     * @throws IllegalArgumentException if an index of that name exists
     * @throws IndexFunctionException if a new function fails on a stored object (no index is added)
     */
    void addIndexers(Map<String, IndexFunction<T>> indexers);

    /** The names of the indexes. */
    Set<String> indexNames();

    /** The objects whose index {@code indexName} contains {@code value}. */
    List<T> byIndex(String indexName, String value);

    /** The keys of the objects whose index {@code indexName} contains {@code value}. */
    List<String> indexKeys(String indexName, String value);

    /** Every value index {@code indexName} holds for some object. */
    List<String> listIndexFuncValues(String indexName);

    /** The objects that share at least one value of index {@code indexName} with {@code object}. */
    List<T> index(String indexName, T object);
}

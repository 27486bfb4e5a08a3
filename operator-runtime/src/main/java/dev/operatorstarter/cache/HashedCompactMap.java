package dev.operatorstarter.cache;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The read-only map a compacted cached object holds for a map too large for {@link CompactMap}
 * (more than {@value CompactMap#MAX_SIZE} entries): a hashed map behind a read-only view that
 * copies like {@link CompactMap}. Reads like the map it wraps; changing it throws
 * {@link UnsupportedOperationException}; an entry read by iteration holds a writable copy of a
 * nested compacted map or list ({@link WritableCopy}), while {@link #get} and {@link #forEach} give
 * the cached values themselves. Serializable: it is written as a plain {@link LinkedHashMap}.
 */
final class HashedCompactMap<K, V> extends AbstractMap<K, V> implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient LinkedHashMap<K, V> entries;

    private HashedCompactMap(LinkedHashMap<K, V> entries) {
        this.entries = entries;
    }

    /** A read-only map of {@code entries}, which it takes over: the caller must not change it afterwards. */
    static <K, V> HashedCompactMap<K, V> wrap(LinkedHashMap<K, V> entries) {
        return new HashedCompactMap<>(entries);
    }

    @Override
    public int size() {
        return entries.size();
    }

    @Override
    public boolean containsKey(Object key) {
        return entries.containsKey(key);
    }

    @Override
    public V get(Object key) {
        return entries.get(key);
    }

    @Override
    public V getOrDefault(Object key, V defaultValue) {
        return entries.getOrDefault(key, defaultValue);
    }

    @Override
    public void forEach(BiConsumer<? super K, ? super V> action) {
        entries.forEach(action);
    }

    @Override
    public int hashCode() {
        return entries.hashCode();
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<K, V>> iterator() {
                Iterator<Entry<K, V>> inner = entries.entrySet().iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return inner.hasNext();
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<K, V> next() {
                        Entry<K, V> entry = inner.next();
                        return new SimpleImmutableEntry<>(entry.getKey(), (V) WritableCopy.of(entry.getValue()));
                    }
                };
            }

            @Override
            public int size() {
                return entries.size();
            }
        };
    }

    /** Serialized as a plain {@link LinkedHashMap} of writable copies. */
    @Serial
    private Object writeReplace() {
        return WritableCopy.of(this);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a HashedCompactMap is serialized as a LinkedHashMap, never as itself");
    }
}

package dev.operatorstarter.cache;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The read-only map a compacted cached object holds instead of a small {@code LinkedHashMap}: keys
 * and values alternate in one array, in the original order, so three labels take 56 bytes instead
 * of some 200. Lookups scan the keys, which is as fast as hashing for the
 * {@value #MAX_SIZE} entries it is used for at most (shared keys compare by identity first).
 * Reads like any map (null values included); changing it throws
 * {@link UnsupportedOperationException}. One shared instance stands for every empty map.
 *
 * <p>Copying it gives a copy writable at every depth: an entry read by iteration (how
 * {@code new LinkedHashMap<>(map)}, {@code putAll} and a model builder copy a map) holds a writable
 * copy of a nested compacted map or list ({@link WritableCopy}), so a builder copy of a cached
 * generic resource can change its nested {@code spec}; {@link #get} and {@link #forEach} give the
 * cached values themselves. Serializable: it is written as a plain {@link java.util.LinkedHashMap}
 * (a serialization proxy), as fabric8's models are serializable.
 */
final class CompactMap<K, V> extends AbstractMap<K, V> implements Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    /** The largest map kept in this form; larger ones stay hashed, behind a read-only view. */
    static final int MAX_SIZE = 16;

    private static final CompactMap<Object, Object> EMPTY = new CompactMap<>(new Object[0]);

    /** key 0, value 0, key 1, value 1, ... */
    private final transient Object[] slots;

    private CompactMap(Object[] slots) {
        this.slots = slots;
    }

    /**
     * A map of {@code slots} (keys at even indexes, their values after them, no key twice), which
     * it takes over: the caller must not change the array afterwards.
     */
    @SuppressWarnings("unchecked")
    static <K, V> CompactMap<K, V> wrap(Object[] slots) {
        if (slots.length % 2 != 0 || slots.length > 2 * MAX_SIZE) {
            throw new IllegalArgumentException("a compact map holds up to " + MAX_SIZE + " key-value pairs");
        }
        return slots.length == 0 ? (CompactMap<K, V>) EMPTY : new CompactMap<>(slots);
    }

    /** Keys and values in order, for comparing two maps by content and order; never changed by the caller. */
    Object[] slots() {
        return slots;
    }

    @Override
    public int size() {
        return slots.length / 2;
    }

    @Override
    public boolean isEmpty() {
        return slots.length == 0;
    }

    private int indexOf(Object key) {
        for (int i = 0; i < slots.length; i += 2) {
            Object k = slots[i];
            if (k == key || (k != null && k.equals(key))) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int index = indexOf(key);
        return index < 0 ? null : (V) slots[index + 1];
    }

    @Override
    @SuppressWarnings("unchecked")
    public V getOrDefault(Object key, V defaultValue) {
        int index = indexOf(key);
        return index < 0 ? defaultValue : (V) slots[index + 1];
    }

    @Override
    @SuppressWarnings("unchecked")
    public void forEach(BiConsumer<? super K, ? super V> action) {
        for (int i = 0; i < slots.length; i += 2) {
            action.accept((K) slots[i], (V) slots[i + 1]);
        }
    }

    @Override
    public int hashCode() {
        int hash = 0;
        for (int i = 0; i < slots.length; i += 2) {
            hash += Objects.hashCode(slots[i]) ^ Objects.hashCode(slots[i + 1]);
        }
        return hash;
    }

    @Override
    public Set<Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<K, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < slots.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Entry<K, V> next() {
                        if (next >= slots.length) {
                            throw new NoSuchElementException();
                        }
                        Entry<K, V> entry = new SimpleImmutableEntry<>((K) slots[next],
                                (V) WritableCopy.of(slots[next + 1]));
                        next += 2;
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return slots.length / 2;
            }
        };
    }

    /** Serialized as a plain {@link java.util.LinkedHashMap} of writable copies. */
    @Serial
    private Object writeReplace() {
        return WritableCopy.of(this);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a CompactMap is serialized as a LinkedHashMap, never as itself");
    }
}

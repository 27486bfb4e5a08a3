package dev.operatorstarter.cache;

import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serial;
import java.io.Serializable;
import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The read-only list a compacted cached object holds instead of an {@code ArrayList}: its elements
 * in one exactly sized array (an {@code ArrayList} of one element keeps ten slots). It reads like
 * any list (nulls included, unlike {@link List#of}); changing it throws
 * {@link UnsupportedOperationException}. One shared instance stands for every empty list.
 *
 * <p>Copying it gives a copy writable at every depth: {@link #toArray()} (how
 * {@code new ArrayList<>(list)}, {@code addAll} and a model builder copy a list) holds writable
 * copies of nested compacted maps and lists ({@link WritableCopy}); {@link #get} and iteration give
 * the cached elements themselves. Serializable: it is written as a plain {@link java.util.ArrayList}
 * (a serialization proxy), as fabric8's models are serializable.
 */
final class CompactList<E> extends AbstractList<E> implements RandomAccess, Serializable {

    @Serial
    private static final long serialVersionUID = 1L;

    private static final CompactList<Object> EMPTY = new CompactList<>(new Object[0]);

    private final transient Object[] elements;

    private CompactList(Object[] elements) {
        this.elements = elements;
    }

    /** A list of {@code elements}, which it takes over: the caller must not change the array afterwards. */
    @SuppressWarnings("unchecked")
    static <E> CompactList<E> wrap(Object[] elements) {
        return elements.length == 0 ? (CompactList<E>) EMPTY : new CompactList<>(elements);
    }

    /** The elements, for comparing two lists by identity of content; never changed by the caller. */
    Object[] elements() {
        return elements;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        return (E) elements[index];
    }

    @Override
    public int size() {
        return elements.length;
    }

    @Override
    public Object[] toArray() {
        return WritableCopy.ofEach(elements);
    }

    /** Serialized as a plain {@link java.util.ArrayList} of writable copies. */
    @Serial
    private Object writeReplace() {
        return WritableCopy.of(this);
    }

    @Serial
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a CompactList is serialized as an ArrayList, never as itself");
    }
}

package dev.operatorstarter.cache;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writable copies of the read-only collections a compacted cached object holds
 * ({@link CompactMap}, {@link HashedCompactMap}, {@link CompactList}), at every depth. They are what
 * those collections hand out when they are copied (a map's entries as read by iteration, which is
 * how {@code new LinkedHashMap<>(map)} and {@code putAll} copy; a list's {@code toArray()}, which is
 * how {@code new ArrayList<>(list)} and {@code addAll} copy). So the documented way to change a
 * cached object, copying it with its model's builder (which copies maps and lists one level deep),
 * gives a copy that can be changed at any depth, a generic resource's nested {@code spec} included,
 * without touching the cache.
 */
final class WritableCopy {

    private WritableCopy() {
    }

    /**
     * {@code value} itself, unless it is a compacted map or list: then a {@link LinkedHashMap} or
     * {@link ArrayList} with the same content in the same order, whose own compacted maps and lists
     * are copied the same way.
     */
    static Object of(Object value) {
        if (value instanceof CompactMap<?, ?> || value instanceof HashedCompactMap<?, ?>) {
            Map<?, ?> map = (Map<?, ?>) value;
            Map<Object, Object> copy = new LinkedHashMap<>((int) (map.size() / 0.75f) + 1);
            map.forEach((key, nested) -> copy.put(key, of(nested))); // forEach reads without copying
            return copy;
        }
        if (value instanceof CompactList<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                copy.add(of(list.get(i)));
            }
            return copy;
        }
        return value;
    }

    /** The elements of {@code elements} through {@link #of}, in a new array. */
    static Object[] ofEach(Object[] elements) {
        Object[] copy = new Object[elements.length];
        for (int i = 0; i < elements.length; i++) {
            copy[i] = elements[i] == null ? null : of(elements[i]);
        }
        return copy;
    }
}

package dev.operatorstarter.cache;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands out one instance per distinct value: strings, boxed numbers, and the read-only string lists
 * and maps of {@link Compaction} (compared by content and order, so a shared map never changes the
 * order a reader sees). Bounded: when it holds {@link #MAX_ENTRIES} values it starts afresh, so
 * values that stopped repeating (an old image tag, a deleted namespace) cannot keep it full, and
 * what it retains never grows with the number of cached objects.
 */
final class Interner {

    static final int MAX_ENTRIES = 65_536;
    /** Longer strings are rarely repeated and never shared. */
    static final int MAX_STRING_LENGTH = 256;

    private final ConcurrentHashMap<Object, Object> values = new ConcurrentHashMap<>();
    private final int maxEntries;

    Interner() {
        this(MAX_ENTRIES);
    }

    Interner(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    /** The shared instance equal to {@code value}: an earlier one, or {@code value} itself (then remembered). */
    @SuppressWarnings("unchecked")
    <T> T share(T value) {
        Object key = keyOf(value);
        Object shared = values.get(key);
        if (shared != null) {
            return (T) shared;
        }
        if (values.size() >= maxEntries) {
            values.clear();
        }
        shared = values.putIfAbsent(key, value);
        return shared != null ? (T) shared : value;
    }

    /** Whether {@link #share} would consider {@code value} at all. */
    static boolean worthSharing(String value) {
        return value.length() <= MAX_STRING_LENGTH;
    }

    int size() {
        return values.size();
    }

    private static Object keyOf(Object value) {
        if (value instanceof CompactList<?> list) {
            return new Ordered(false, list.elements());
        }
        if (value instanceof CompactMap<?, ?> map) {
            return new Ordered(true, map.slots());
        }
        return value;
    }

    /** A list's or map's content in order: two maps with the same entries in another order differ. */
    private record Ordered(boolean map, Object[] content) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Ordered o && o.map == map && Arrays.equals(o.content, content);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(content) * 31 + (map ? 1 : 0);
        }

        @Override
        public String toString() {
            return (map ? "map" : "list") + Arrays.toString(content);
        }
    }
}

package dev.operatorstarter.cache;

import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Hands out one instance per distinct short string. Bounded: past {@link #MAX_ENTRIES} entries or
 * for strings longer than {@link #MAX_LENGTH} it returns its argument unchanged, so unique values
 * cannot grow it without limit.
 */
final class StringPool {

    static final int MAX_ENTRIES = 65_536;
    static final int MAX_LENGTH = 256;

    private final ConcurrentHashMap<String, String> strings = new ConcurrentHashMap<>();

    @Nullable String share(@Nullable String value) {
        if (value == null || value.length() > MAX_LENGTH) {
            return value;
        }
        String shared = strings.get(value);
        if (shared != null) {
            return shared;
        }
        if (strings.size() >= MAX_ENTRIES) {
            return value;
        }
        shared = strings.putIfAbsent(value, value);
        return shared != null ? shared : value;
    }

    int size() {
        return strings.size();
    }
}

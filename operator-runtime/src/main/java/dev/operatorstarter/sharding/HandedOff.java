package dev.operatorstarter.sharding;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The objects a shard acknowledged a drain of, each at the {@code resourceVersion} it acknowledged:
 * while the shard's cache still shows that version (it has not caught up with the
 * acknowledgement), a request for the object is dropped, neither acknowledged again nor
 * reconciled.
 *
 * <p>An entry is forgotten when the shard's cache shows the object at another version (assigned
 * here again), or {@link #TTL} after it was made, whichever comes first; never because the object
 * is absent. Thread-safe.
 */
final class HandedOff {

    /**
     * How long an entry lasts, and how long the shard remembers anything of an object gone from its
     * cache: far longer than its cache takes to catch up (a watch round trip, a relist), and than any
     * requeue can have been waiting (the default rate limiter's longest back-off is 1000 s).
     */
    static final Duration TTL = Duration.ofMinutes(20);

    private record Entry(String resourceVersion, long atNanos) {
    }

    private final TimeSource time;
    private final Duration ttl;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    HandedOff(TimeSource time, Duration ttl) {
        this.time = Objects.requireNonNull(time, "time");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
    }

    /** The object {@code key} was acknowledged at {@code resourceVersion}: it is not this shard's at that version. */
    void remember(String key, String resourceVersion) {
        entries.put(key, new Entry(Objects.requireNonNull(resourceVersion, "resourceVersion"), time.nanoTime()));
    }

    /** The version at which {@code key} was acknowledged; empty when it was not (or too long ago). */
    Optional<String> versionOf(String key) {
        Entry entry = entries.get(key);
        if (entry == null) {
            return Optional.empty();
        }
        if (expired(entry)) {
            entries.remove(key, entry);
            return Optional.empty();
        }
        return Optional.of(entry.resourceVersion());
    }

    /** Forgets {@code key}: the shard's cache holds it at another version. */
    void forget(String key) {
        entries.remove(key);
    }

    /** Forgets every entry older than the TTL, whether or not a request for it came. */
    void expire() {
        entries.values().removeIf(this::expired);
    }

    /** How many entries there are. */
    int size() {
        return entries.size();
    }

    private boolean expired(Entry entry) {
        return time.nanoTime() - entry.atNanos() >= ttl.toNanos();
    }
}

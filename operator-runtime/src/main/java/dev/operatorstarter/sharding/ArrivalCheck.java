package dev.operatorstarter.sharding;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Holds back a shard's first reconcile of an object that moved in until its children moved in
 * too. The assigner relabels the children before it gives the owner its new token, and writes the
 * count of children per resource in the arrival annotation ({@code configmaps=3,deployments.apps=1});
 * the new shard's watches deliver them in any order, so its cache of the owner may be ahead of its
 * caches of the children. A reconcile then would see no children and create them again.
 *
 * <p>Each arrival value is checked until it passes once, then never again for that object (a
 * child deleted later is the reconciler's business). A value that does not pass within the
 * timeout (a child deleted meanwhile) passes anyway, and says so once. What it remembers of an
 * object is forgotten when the object leaves the shard ({@link #forget}), or, without any request
 * for it, by {@link #expire} once the object is gone from the shard's cache. Thread-safe.
 */
final class ArrivalCheck {

    /** What to do with a reconcile of an object. */
    enum Verdict {
        /** Reconcile: no arrival to wait for, or it passed. */
        GO,
        /** Requeue shortly: the announced children are not all in the caches yet. */
        WAIT,
        /** Reconcile, and warn: the children did not all arrive within the timeout. */
        OVERDUE
    }

    private final Duration timeout;
    private final TimeSource time;
    /** Per object, the arrival value that passed, and when. */
    private final Map<String, Passed> passed = new ConcurrentHashMap<>();
    /** Per object, the value being waited for and since when. */
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();

    ArrivalCheck(Duration timeout, TimeSource time) {
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.time = Objects.requireNonNull(time, "time");
    }

    /** The time source it waits on; the shard's decorator times what it remembers on it too. */
    TimeSource time() {
        return time;
    }

    /**
     * Whether the object {@code key}, whose arrival annotation is {@code arrival}, may be reconciled.
     *
     * @param held how many children of a resource ({@code plural[.group]}) the shard's caches hold for it
     */
    Verdict check(String key, @Nullable String arrival, ToIntFunction<String> held) {
        Passed before = passed.get(key);
        if (arrival == null || arrival.isBlank() || before != null && arrival.equals(before.arrival())) {
            return Verdict.GO;
        }
        if (arrived(arrival, held)) {
            pass(key, arrival);
            return Verdict.GO;
        }
        Waiting since = waiting.compute(key, (k, earlier) -> earlier != null && earlier.arrival().equals(arrival)
                ? earlier : new Waiting(arrival, time.nanoTime()));
        if (time.since(since.startNanos()).compareTo(timeout) < 0) {
            return Verdict.WAIT;
        }
        pass(key, arrival);
        return Verdict.OVERDUE;
    }

    /** Forgets {@code key}: the object left this shard or was deleted. */
    void forget(String key) {
        passed.remove(key);
        waiting.remove(key);
    }

    /**
     * Forgets every object remembered for at least {@code ttl} that {@code gone} says is no longer
     * in the shard's cache: it left or was deleted, and no request came to say so.
     */
    void expire(Duration ttl, Predicate<String> gone) {
        long now = time.nanoTime();
        passed.entrySet().removeIf(entry -> now - entry.getValue().atNanos() >= ttl.toNanos()
                && gone.test(entry.getKey()));
        waiting.entrySet().removeIf(entry -> now - entry.getValue().startNanos() >= ttl.toNanos()
                && gone.test(entry.getKey()));
    }

    /** How many objects it remembers. */
    int size() {
        return passed.size() + waiting.size();
    }

    private void pass(String key, String arrival) {
        passed.put(key, new Passed(arrival, time.nanoTime()));
        waiting.remove(key);
    }

    /** Whether every announced count is held; a malformed entry counts as arrived (nothing to wait for). */
    private static boolean arrived(String arrival, ToIntFunction<String> held) {
        for (String entry : arrival.split(",")) {
            int equals = entry.lastIndexOf('=');
            if (equals <= 0) {
                continue;
            }
            int announced;
            try {
                announced = Integer.parseInt(entry.substring(equals + 1).strip());
            } catch (NumberFormatException notACount) {
                continue;
            }
            if (held.applyAsInt(entry.substring(0, equals).strip()) < announced) {
                return false;
            }
        }
        return true;
    }

    private record Waiting(String arrival, long startNanos) {
    }

    private record Passed(String arrival, long atNanos) {
    }
}

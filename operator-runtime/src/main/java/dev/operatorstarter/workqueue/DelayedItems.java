package dev.operatorstarter.workqueue;

import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The delaying part of the work queue (client-go's {@code delaying_queue.go}): items waiting
 * until a moment on the queue's clock, earliest first, each at most once. Adding an item that
 * already waits keeps the earlier of the two moments, as client-go does. Nothing here is ever
 * dropped but by {@link #clear()} (at shutdown). Each waits with a priority, the highest it was
 * scheduled with, which it is queued at when due.
 *
 * <p>Not thread-safe: the queue calls it under its lock.
 */
final class DelayedItems<T> {

    private record Delayed<T>(long readyAt, long sequence, T item) {
    }

    /** An item that is due, and the priority to queue it at. */
    record Due<T>(T item, int priority) {
    }

    /** When an item is due, and at which priority. */
    private static final class Waiting {
        long readyAt;
        int priority;

        Waiting(long readyAt, int priority) {
            this.readyAt = readyAt;
            this.priority = priority;
        }
    }

    /** Item → when it is due; the heap may hold stale entries for items moved earlier. */
    private final Map<T, Waiting> waiting = new HashMap<>();
    private final java.util.PriorityQueue<Delayed<T>> heap = new java.util.PriorityQueue<>((a, b) -> a.readyAt() != b.readyAt()
            ? Long.compare(a.readyAt(), b.readyAt()) : Long.compare(a.sequence(), b.sequence()));
    private long sequence;

    /**
     * Lets {@code item} wait until {@code readyAt} (monotonic nanoseconds), to be queued at
     * {@code priority} or the higher priority it already waits with; false when it already waits
     * for that moment or an earlier one (its priority may still have been raised).
     */
    boolean schedule(T item, long readyAt, int priority) {
        Waiting current = waiting.get(item);
        if (current != null) {
            current.priority = Math.max(current.priority, priority);
            if (current.readyAt <= readyAt) {
                return false; // already due earlier
            }
            current.readyAt = readyAt;
        } else {
            waiting.put(item, new Waiting(readyAt, priority));
        }
        heap.add(new Delayed<>(readyAt, sequence++, item));
        return true;
    }

    /** True when no item waits (so the caller need not read the clock). */
    boolean isEmpty() {
        return heap.isEmpty();
    }

    /** Takes the earliest item due at {@code now}, or null when none is. */
    @Nullable Due<T> pollDue(long now) {
        Delayed<T> next = peekValid();
        if (next == null || next.readyAt() - now > 0) {
            return null;
        }
        heap.poll();
        return new Due<>(next.item(), waiting.remove(next.item()).priority);
    }

    /** When the earliest waiting item is due, or {@link Long#MAX_VALUE} when none waits. */
    long nextDue() {
        Delayed<T> next = peekValid();
        return next == null ? Long.MAX_VALUE : next.readyAt();
    }

    /** Forgets every waiting item. */
    void clear() {
        waiting.clear();
        heap.clear();
    }

    private @Nullable Delayed<T> peekValid() {
        while (!heap.isEmpty()) {
            Delayed<T> next = heap.peek();
            Waiting due = waiting.get(next.item());
            if (due != null && due.readyAt == next.readyAt()) {
                return next;
            }
            heap.poll(); // stale: the item was moved earlier and has been handled
        }
        return null;
    }
}

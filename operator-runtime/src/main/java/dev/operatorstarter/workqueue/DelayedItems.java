package dev.operatorstarter.workqueue;

import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * The delaying part of the work queue (client-go's {@code delaying_queue.go}): items waiting
 * until a moment on the queue's clock, earliest first, each at most once. Adding an item that
 * already waits keeps the earlier of the two moments, as client-go does. Nothing here is ever
 * dropped but by {@link #clear()} (at shutdown).
 *
 * <p>Not thread-safe: the queue calls it under its lock.
 */
final class DelayedItems<T> {

    private record Delayed<T>(long readyAt, long sequence, T item) {
    }

    /** Item → when it is due; the heap may hold stale entries for items moved earlier. */
    private final Map<T, Long> waiting = new HashMap<>();
    private final PriorityQueue<Delayed<T>> heap = new PriorityQueue<>((a, b) -> a.readyAt() != b.readyAt()
            ? Long.compare(a.readyAt(), b.readyAt()) : Long.compare(a.sequence(), b.sequence()));
    private long sequence;

    /**
     * Lets {@code item} wait until {@code readyAt} (monotonic nanoseconds); false when it already
     * waits for that moment or an earlier one.
     */
    boolean schedule(T item, long readyAt) {
        Long current = waiting.get(item);
        if (current != null && current <= readyAt) {
            return false; // already due earlier
        }
        waiting.put(item, readyAt);
        heap.add(new Delayed<>(readyAt, sequence++, item));
        return true;
    }

    /** True when no item waits (so the caller need not read the clock). */
    boolean isEmpty() {
        return heap.isEmpty();
    }

    /** Takes the earliest item due at {@code now}, or null when none is. */
    @Nullable T pollDue(long now) {
        Delayed<T> next = peekValid();
        if (next == null || next.readyAt() - now > 0) {
            return null;
        }
        heap.poll();
        waiting.remove(next.item());
        return next.item();
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
            Long due = waiting.get(next.item());
            if (due != null && due == next.readyAt()) {
                return next;
            }
            heap.poll(); // stale: the item was moved earlier and has been handled
        }
        return null;
    }
}

package dev.operatorstarter.cache;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;

/**
 * One resync check of an informer's handlers (client-go's {@code sharedProcessor.shouldResync}):
 * the handlers whose resync is due at a given time, each of which is then scheduled one of its
 * periods later, and when the next check is due.
 *
 * <p>Each handler keeps its own schedule and the informer checks exactly when the earliest one is
 * due, so a period is neither stretched to the next tick of a fixed-rate timer nor rounded up to
 * a multiple of the shortest period: a handler is resynced within the check's own latency of its
 * due time. A pure function of the time it is given (monotonic nanoseconds of the informer's time source), so it is
 * tested without threads.
 *
 * @param due the handlers to resync now, in registration order
 * @param nextCheckNanos when the earliest handler is next due; empty when no handler resyncs
 */
record ResyncCheck<T>(List<Listener<T>> due, OptionalLong nextCheckNanos) {

    ResyncCheck {
        due = List.copyOf(due);
    }

    /** Finds the handlers due at {@code nowNanos} and schedules each one's next resync. */
    static <T> ResyncCheck<T> at(long nowNanos, Collection<Listener<T>> listeners) {
        List<Listener<T>> due = new ArrayList<>();
        for (Listener<T> listener : listeners) {
            if (listener.shouldResync(nowNanos)) {
                due.add(listener);
            }
        }
        return new ResyncCheck<>(due, nextCheck(listeners));
    }

    /** When the earliest of {@code listeners} is due; empty when none resyncs. */
    static <T> OptionalLong nextCheck(Collection<Listener<T>> listeners) {
        OptionalLong earliest = OptionalLong.empty();
        for (Listener<T> listener : listeners) {
            OptionalLong next = listener.nextResyncNanos();
            // nanoTime values are compared by their difference: they may wrap around
            if (next.isPresent() && (earliest.isEmpty() || next.getAsLong() - earliest.getAsLong() < 0)) {
                earliest = next;
            }
        }
        return earliest;
    }
}

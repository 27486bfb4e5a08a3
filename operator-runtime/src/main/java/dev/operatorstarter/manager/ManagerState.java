package dev.operatorstarter.manager;

/**
 * Where a {@link Manager} is in its life, and the one transition function between its states,
 * which tests drive without threads. The manager holds one state under its lock and changes it only
 * through {@link #next}.
 *
 * <pre>
 * Idle ──Start──► AwaitingResources ──Served──► Syncing ──Synced──► Running
 *   └───────────────────────┴──────────── Close ─────────┴──────────────┴──► Closed
 * </pre>
 *
 * A {@code Start} other than from {@code Idle} is refused (a manager runs once); an event that
 * arrives after {@code Close} changes nothing (a background start-up finishing late).
 */
sealed interface ManagerState {

    /** Built, not started. */
    record Idle() implements ManagerState {
    }

    /** Started: asking the API server whether it serves every informer's resource. */
    record AwaitingResources(long sinceNanos) implements ManagerState {
    }

    /** Every resource is served: the informers run and the manager waits for their caches. */
    record Syncing(long sinceNanos) implements ManagerState {
    }

    /** The caches synced: the groups after the caches run (the term groups in their terms). */
    record Running(long sinceNanos) implements ManagerState {
    }

    /** Closed for good; informers cannot be restarted. */
    record Closed() implements ManagerState {
    }

    /** What happens to a manager. */
    sealed interface Event {

        record Start(long nowNanos) implements Event {
        }

        record Served(long nowNanos) implements Event {
        }

        record Synced(long nowNanos) implements Event {
        }

        record Close() implements Event {
        }
    }

    /** Whether the manager started and was not closed: it may go on towards {@link Running}. */
    default boolean isOpen() {
        return !(this instanceof Idle) && !(this instanceof Closed);
    }

    /**
     * The state after {@code event}.
     *
     * @throws IllegalStateException for a {@code Start} of a manager that started or closed before
     */
    static ManagerState next(ManagerState state, Event event) {
        if (event instanceof Event.Close) {
            return new Closed();
        }
        if (state instanceof Closed) {
            if (event instanceof Event.Start) {
                throw new IllegalStateException("the manager was closed and cannot start again (informers cannot "
                        + "be restarted): build a new one");
            }
            return state;
        }
        if (event instanceof Event.Start start) {
            if (!(state instanceof Idle)) {
                throw new IllegalStateException("the manager has started already");
            }
            return new AwaitingResources(start.nowNanos());
        }
        if (event instanceof Event.Served served && state instanceof AwaitingResources) {
            return new Syncing(served.nowNanos());
        }
        if (event instanceof Event.Synced synced && state instanceof Syncing) {
            return new Running(synced.nowNanos());
        }
        throw new IllegalStateException("a manager in state " + state + " cannot take " + event);
    }
}

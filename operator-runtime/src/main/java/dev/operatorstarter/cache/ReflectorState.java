package dev.operatorstarter.cache;

import java.time.Duration;

/**
 * The states of a {@link Reflector}, and the outcomes that move it from one to the next. The whole
 * policy (when to relist, from which resourceVersion, when to back off) is the one function
 * {@link #next}; the reflector's thread only carries out the step a state names.
 */
public sealed interface ReflectorState {

    /** List (or stream the initial state of) the collection, reading at or after {@code resourceVersion} ("" = latest). */
    record Listing(String resourceVersion) implements ReflectorState {
    }

    /** Watch from {@code resourceVersion}, the last version this cache holds. */
    record Watching(String resourceVersion) implements ReflectorState {
    }

    /** Wait {@code delay}, then go to {@code then}. */
    record BackingOff(Duration delay, ReflectorState then) implements ReflectorState {
    }

    /** Stopped for good. */
    record Stopped() implements ReflectorState {
    }

    /** What a step ended with. */
    sealed interface Outcome {

        /** The list succeeded (or a streaming list delivered its initial events) at {@code resourceVersion}. */
        record Listed(String resourceVersion) implements Outcome {
        }

        /** The list failed because {@code resourceVersion} is expired (410 Gone) or compacted away. */
        record ListExpired(ReflectorException error) implements Outcome {
        }

        /** The list failed for another reason. */
        record ListFailed(ReflectorException error) implements Outcome {
        }

        /**
         * The server closed the watch without an error, after delivering up to {@code resourceVersion}.
         *
         * @param healthy false for a "short watch": closed almost at once without any event, which
         *     signals trouble (an overloaded server, a proxy cutting streams) and is backed off
         */
        record WatchEnded(String resourceVersion, boolean healthy) implements Outcome {
        }

        /** The server answered the watch with 410: {@code resourceVersion} is too old. */
        record WatchExpired(String resourceVersion, ReflectorException error) implements Outcome {
        }

        /** The watch failed (connection, 5xx, 429, decoding) after delivering up to {@code resourceVersion}. */
        record WatchFailed(String resourceVersion, ReflectorException error) implements Outcome {
        }

        /** Nothing arrived, not even a bookmark, for the stall timeout: the watch was cancelled. */
        record WatchStalled(String resourceVersion, ReflectorException error) implements Outcome {
        }

        /** {@code stop()} was called. */
        record StopRequested() implements Outcome {
        }
    }

    /**
     * The state after {@code outcome}.
     *
     * <ul>
     *   <li>A list leads to a watch from its resourceVersion; a failed list is retried after a
     *       backoff from the same version; an expired one at once from "" (the latest state).</li>
     *   <li>A watch that ends normally or stalls is reopened at once from the last version seen;
     *       a short watch or a failed one is reopened after a backoff (a watch from a version that
     *       expired meanwhile then gets 410, which leads to a relist).</li>
     *   <li>A watch answered with 410 relists from the last version seen (the server serves it
     *       from its watch cache when it can); if that is expired too, the relist above goes to "".</li>
     * </ul>
     */
    static ReflectorState next(ReflectorState current, Outcome outcome, Backoff backoff) {
        if (current instanceof Stopped || outcome instanceof Outcome.StopRequested) {
            return new Stopped();
        }
        if (outcome instanceof Outcome.Listed listed) {
            return new Watching(listed.resourceVersion());
        }
        if (outcome instanceof Outcome.ListExpired) {
            if (current instanceof Listing listing && listing.resourceVersion().isEmpty()) {
                // The latest state cannot be expired; treat a 410 here like any failure.
                return new BackingOff(backoff.next(), new Listing(""));
            }
            return new Listing("");
        }
        if (outcome instanceof Outcome.ListFailed) {
            String version = current instanceof Listing listing ? listing.resourceVersion() : "";
            return new BackingOff(backoff.next(), new Listing(version));
        }
        if (outcome instanceof Outcome.WatchEnded ended) {
            Watching again = new Watching(ended.resourceVersion());
            return ended.healthy() ? again : new BackingOff(backoff.next(), again);
        }
        if (outcome instanceof Outcome.WatchExpired expired) {
            return new Listing(expired.resourceVersion());
        }
        if (outcome instanceof Outcome.WatchFailed failed) {
            return new BackingOff(backoff.next(), new Watching(failed.resourceVersion()));
        }
        if (outcome instanceof Outcome.WatchStalled stalled) {
            return new Watching(stalled.resourceVersion());
        }
        throw new IllegalStateException("no transition from " + current + " on " + outcome);
    }
}

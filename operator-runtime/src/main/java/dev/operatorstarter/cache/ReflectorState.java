package dev.operatorstarter.cache;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The states of a {@link Reflector}, and the outcomes that move it from one to the next. The whole
 * policy (when to relist, from which resourceVersion, when to back off) is the one function
 * {@link #next}; the reflector's thread only carries out the step a state names.
 */
sealed interface ReflectorState {

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

        /** The failure this outcome reports, or null for a success, an end or a stop. */
        default @Nullable ReflectorException error() {
            return null;
        }

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

        /**
         * Opening the watch failed: the server could not be reached, or answered with an error
         * (5xx, 403, 429...) before any event. {@code resourceVersion} is the version it was
         * opened from.
         */
        record WatchFailed(String resourceVersion, ReflectorException error) implements Outcome {
        }

        /**
         * A watch that had opened (it delivered an event, or stayed open for a second) broke
         * mid-stream: connection reset, server restarting, an error event, a body that could not
         * be decoded. {@code resourceVersion} is the last version it delivered.
         */
        record WatchCut(String resourceVersion, ReflectorException error) implements Outcome {
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
     *   <li>A watch that had opened and then ended, broke mid-stream or stalled is reopened at once
     *       from the last version seen, as client-go does when a stream ends: the server is (or
     *       was just now) answering, and the sooner the watch is back the less it misses. An
     *       opened watch, like a successful list, also forgets earlier failures.</li>
     *   <li>Only failing to open a watch or a list backs off: with the delay the server asked
     *       for (Retry-After) plus jitter; up to {@code unreachableMax} (1 s) while the server
     *       cannot be reached at all, which costs it nothing, so the informer is back within
     *       about a second of the server answering again; otherwise exponentially up to 30 s.
     *       A short watch (closed at once without events) counts as such a failure.</li>
     *   <li>A watch answered with 410 relists from the last version seen (the server serves it
     *       from its watch cache when it can); if that is expired too, the relist above goes to "".
     *       A watch from a version that expired during a backoff gets 410 and so relists.</li>
     * </ul>
     */
    static ReflectorState next(ReflectorState current, Outcome outcome, Backoff backoff) {
        if (current instanceof Stopped || outcome instanceof Outcome.StopRequested) {
            return new Stopped();
        }
        if (outcome instanceof Outcome.Listed listed) {
            backoff.reset();
            return new Watching(listed.resourceVersion());
        }
        if (outcome instanceof Outcome.ListExpired expired) {
            if (current instanceof Listing listing && listing.resourceVersion().isEmpty()) {
                // The latest state cannot be expired; treat a 410 here like any failure.
                return new BackingOff(delayAfter(expired.error(), backoff), new Listing(""));
            }
            return new Listing("");
        }
        if (outcome instanceof Outcome.ListFailed failed) {
            String version = current instanceof Listing listing ? listing.resourceVersion() : "";
            return new BackingOff(delayAfter(failed.error(), backoff), new Listing(version));
        }
        if (outcome instanceof Outcome.WatchEnded ended) {
            Watching again = new Watching(ended.resourceVersion());
            if (!ended.healthy()) {
                return new BackingOff(backoff.next(), again);
            }
            backoff.reset();
            return again;
        }
        if (outcome instanceof Outcome.WatchExpired expired) {
            return new Listing(expired.resourceVersion());
        }
        if (outcome instanceof Outcome.WatchFailed failed) {
            return new BackingOff(delayAfter(failed.error(), backoff), new Watching(failed.resourceVersion()));
        }
        if (outcome instanceof Outcome.WatchCut cut) {
            backoff.reset();
            return new Watching(cut.resourceVersion());
        }
        if (outcome instanceof Outcome.WatchStalled stalled) {
            backoff.reset();
            return new Watching(stalled.resourceVersion());
        }
        throw new IllegalStateException("no transition from " + current + " on " + outcome);
    }

    /** How long to wait after a list or watch failed to open with {@code error}. */
    private static Duration delayAfter(ReflectorException error, Backoff backoff) {
        Throwable cause = error.getCause() == null ? error : error.getCause();
        java.util.Optional<Duration> asked = Failures.retryAfter(cause);
        if (asked.isPresent()) {
            return backoff.next(asked.get());
        }
        return Failures.unreachable(cause) ? backoff.nextUnreachable() : backoff.next();
    }
}

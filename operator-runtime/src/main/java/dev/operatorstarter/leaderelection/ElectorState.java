package dev.operatorstarter.leaderelection;

import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The states of a {@link LeaderElector} and the events that move it from one to the next. The
 * deadline rules are all in {@link #next}; the elector's threads only perform the reads and writes
 * and report what came of them. All times are this process's monotonic nanoseconds.
 *
 * <p>The rules, and why they keep two leaders from acting at once:
 * <ul>
 *   <li>Another holder's lease is timed from when this process <em>saw</em> its record change,
 *       which is when the read that returned it came back, never when the read was sent: a slow
 *       read would otherwise make a live lease look older than it is.</li>
 *   <li>A term is timed from when the winning write was <em>sent</em>: every other candidate can
 *       only see that write after the server applied it, so this side of the lease always runs
 *       out first.</li>
 *   <li>A term ends once the renew deadline has passed since its last successful write, on any
 *       event that reports the time (a failed attempt, a late success, the watchdog's tick),
 *       whatever the request in flight is doing. A term that ended never comes back; a later
 *       successful write starts a new one.</li>
 * </ul>
 */
sealed interface ElectorState {

    /**
     * Not leading.
     *
     * @param observed the record as last read, or null before the first read and while the lock does not exist
     * @param observedAtNanos when this process first saw {@code observed} (after the read returned)
     */
    record Following(ResourceLock.@Nullable Observed observed, long observedAtNanos) implements ElectorState {
    }

    /**
     * Leading: this candidate's write is the lock's current record, as far as it knows.
     *
     * @param written the record as this candidate last wrote it
     * @param renewedAtNanos when the last successful write was sent
     */
    record Leading(ResourceLock.Observed written, long renewedAtNanos) implements ElectorState {
    }

    /** Closed: the elector neither leads nor campaigns any more. */
    record Released() implements ElectorState {
    }

    /** What happened. */
    sealed interface Event {

        /** A read of the lock returned {@code seen} (empty: no lock object) at {@code returnedAtNanos}. */
        record Read(Optional<ResourceLock.Observed> seen, long returnedAtNanos) implements Event {
        }

        /** This candidate's create or update, sent at {@code sentAtNanos}, succeeded at {@code returnedAtNanos}. */
        record Wrote(ResourceLock.Observed written, long sentAtNanos, long returnedAtNanos) implements Event {
        }

        /** A read or write failed (refused, timed out, broken) at {@code nowNanos}. */
        record Failed(long nowNanos) implements Event {
        }

        /** Time passed: nothing else happened by {@code nowNanos}. */
        record Tick(long nowNanos) implements Event {
        }

        /** The elector is closing. */
        record Closed() implements Event {
        }
    }

    /**
     * The state after {@code event}.
     *
     * @param identity this candidate's identity
     * @param renewDeadline how long a term lasts after its last successful write
     */
    static ElectorState next(ElectorState current, Event event, String identity, Duration renewDeadline) {
        if (current instanceof Released || event instanceof Event.Closed) {
            return new Released();
        }
        long deadline = renewDeadline.toNanos();
        if (current instanceof Leading leading) {
            long now = timeOf(event);
            if (now - leading.renewedAtNanos() >= deadline) {
                // The term is over, whatever is still in flight. A write that came back too late
                // leaves the record ours, so the next attempt renews it and starts a new term.
                return new Following(event instanceof Event.Wrote wrote ? wrote.written() : leading.written(), now);
            }
            if (event instanceof Event.Read read) {
                Optional<ResourceLock.Observed> seen = read.seen();
                if (seen.isEmpty()) {
                    return new Following(null, read.returnedAtNanos()); // the lock was deleted: others may create it
                }
                if (!seen.get().record().holderIdentity().equals(identity)) {
                    return new Following(seen.get(), read.returnedAtNanos()); // someone else holds it now
                }
                return current;
            }
            if (event instanceof Event.Wrote wrote) {
                return new Leading(wrote.written(), Math.max(leading.renewedAtNanos(), wrote.sentAtNanos()));
            }
            return current; // a failure or a tick within the deadline: keep trying
        }
        Following following = (Following) current;
        if (event instanceof Event.Read read) {
            Optional<ResourceLock.Observed> seen = read.seen();
            if (seen.isEmpty()) {
                return new Following(null, read.returnedAtNanos());
            }
            if (!seen.get().equals(following.observed())) {
                return new Following(seen.get(), read.returnedAtNanos());
            }
            return current; // unchanged since first seen: its lease keeps counting from then
        }
        if (event instanceof Event.Wrote wrote) {
            return startTerm(wrote, deadline);
        }
        return current;
    }

    /**
     * When the lease {@code state} observed runs out for this candidate, or empty when this
     * candidate may write the lock now (no lock, a released one, its own record, or an expired lease).
     */
    static Optional<Long> othersLeaseRunsOutAt(ElectorState state, String identity, long nowNanos) {
        if (!(state instanceof Following following) || following.observed() == null) {
            return Optional.empty();
        }
        LeaderElectionRecord record = following.observed().record();
        if (record.isReleased() || record.holderIdentity().equals(identity)) {
            return Optional.empty();
        }
        long expiresAt = following.observedAtNanos() + record.leaseDuration().toNanos();
        return nowNanos < expiresAt ? Optional.of(expiresAt) : Optional.empty();
    }

    private static ElectorState startTerm(Event.Wrote wrote, long deadline) {
        if (wrote.returnedAtNanos() - wrote.sentAtNanos() >= deadline) {
            // So slow that the term would be over before it began: not leading, but the record is ours.
            return new Following(wrote.written(), wrote.returnedAtNanos());
        }
        return new Leading(wrote.written(), wrote.sentAtNanos());
    }

    private static long timeOf(Event event) {
        if (event instanceof Event.Read read) {
            return read.returnedAtNanos();
        }
        if (event instanceof Event.Wrote wrote) {
            return wrote.returnedAtNanos();
        }
        if (event instanceof Event.Failed failed) {
            return failed.nowNanos();
        }
        if (event instanceof Event.Tick tick) {
            return tick.nowNanos();
        }
        throw new IllegalStateException("no time in " + event);
    }
}

package dev.operatorstarter.leaderelection;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a lock holds (client-go's {@code LeaderElectionRecord}).
 *
 * @param holderIdentity the leader, or "" when the lease was released
 * @param leaseDuration how long others must wait, after seeing this record change, before taking over
 * @param acquireTime when the holder acquired it
 * @param renewTime when the holder last renewed it
 * @param leaderTransitions how many times the holder changed
 */
public record LeaderElectionRecord(String holderIdentity, Duration leaseDuration, @Nullable Instant acquireTime,
        @Nullable Instant renewTime, int leaderTransitions) {

    public LeaderElectionRecord {
        holderIdentity = holderIdentity == null ? "" : holderIdentity;
        Objects.requireNonNull(leaseDuration, "leaseDuration");
    }

    /** True when nobody holds the lease. */
    public boolean isReleased() {
        return holderIdentity.isEmpty();
    }

    /**
     * The record a Lease's spec holds (client-go's {@code LeaseSpecToLeaderElectionRecord}): an
     * absent spec or field reads as empty, zero or null.
     */
    public static LeaderElectionRecord of(@Nullable LeaseSpec spec) {
        if (spec == null) {
            return new LeaderElectionRecord("", Duration.ZERO, null, null, 0);
        }
        return new LeaderElectionRecord(spec.getHolderIdentity(),
                Duration.ofSeconds(spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds()),
                instant(spec.getAcquireTime()), instant(spec.getRenewTime()),
                spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions());
    }

    /**
     * This record as a Lease's spec (client-go's {@code LeaderElectionRecordToLeaseSpec}); the
     * lease duration in whole seconds, {@linkplain #asWritten rounded up}. {@link #of(LeaseSpec)}
     * reads it back equal for a duration of whole seconds and times of whole microseconds (a
     * Lease's {@code MicroTime}), as {@link #first} and {@link #writtenBy} make them.
     */
    public LeaseSpec toLeaseSpec() {
        LeaseSpec spec = new LeaseSpec();
        spec.setHolderIdentity(holderIdentity);
        spec.setLeaseDurationSeconds((int) asWritten(leaseDuration).toSeconds());
        spec.setAcquireTime(time(acquireTime));
        spec.setRenewTime(time(renewTime));
        spec.setLeaseTransitions(leaderTransitions);
        return spec;
    }

    /**
     * The lease duration a Lease records for {@code leaseDuration}: whole seconds, rounded up, at
     * least one. Rounded up, never down: the other side of the lease (a candidate, the assigner)
     * waits the duration it reads, which must not be shorter than the holder's own.
     */
    public static Duration asWritten(Duration leaseDuration) {
        long seconds = leaseDuration.getSeconds() + (leaseDuration.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(Math.max(1, Math.min(Integer.MAX_VALUE, seconds)));
    }

    /**
     * The record of {@code identity} creating the lock at {@code now}: the lease duration as the
     * Lease records it, the time to the microsecond (as the Lease records it).
     */
    public static LeaderElectionRecord first(String identity, Duration leaseDuration, Instant now) {
        Instant at = micros(now);
        return new LeaderElectionRecord(identity, asWritten(leaseDuration), at, at, 0);
    }

    /**
     * The record {@code identity} writes over this one at {@code now}: a renewal keeps the
     * acquire time and the transition count; a takeover starts a new acquire time and counts one
     * more transition (client-go's {@code tryAcquireOrRenew}). Durations and times as in {@link #first}.
     *
     * <p>The renew time always moves forward, by at least a microsecond, even when the wall clock
     * stands still or steps back: every write makes a record that differs from the one it replaces,
     * so whoever times the lease from when the record last changed (the other candidates, the
     * sharding's assigner) restarts its clock at each renewal and never takes a lease right after it
     * was renewed.
     */
    public LeaderElectionRecord writtenBy(String identity, Duration leaseDuration, Instant now) {
        Instant at = micros(now);
        if (renewTime != null && !at.isAfter(renewTime)) {
            at = micros(renewTime).plus(1, ChronoUnit.MICROS);
        }
        return holderIdentity.equals(identity)
                ? new LeaderElectionRecord(identity, asWritten(leaseDuration), acquireTime, at, leaderTransitions)
                : new LeaderElectionRecord(identity, asWritten(leaseDuration), at, at, leaderTransitions + 1);
    }

    private static Instant micros(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MICROS);
    }

    private static @Nullable ZonedDateTime time(@Nullable Instant instant) {
        return instant == null ? null : ZonedDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static @Nullable Instant instant(@Nullable ZonedDateTime time) {
        return time == null ? null : time.toInstant();
    }
}

package dev.operatorstarter.leaderelection;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
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
     * lease duration in whole seconds, at least 1. {@link #of(LeaseSpec)} reads it back equal
     * for a duration of whole seconds.
     */
    public LeaseSpec toLeaseSpec() {
        LeaseSpec spec = new LeaseSpec();
        spec.setHolderIdentity(holderIdentity);
        spec.setLeaseDurationSeconds((int) Math.max(1, leaseDuration.toSeconds()));
        spec.setAcquireTime(time(acquireTime));
        spec.setRenewTime(time(renewTime));
        spec.setLeaseTransitions(leaderTransitions);
        return spec;
    }

    /** The record of {@code identity} creating the lock at {@code now}. */
    public static LeaderElectionRecord first(String identity, Duration leaseDuration, Instant now) {
        return new LeaderElectionRecord(identity, leaseDuration, now, now, 0);
    }

    /**
     * The record {@code identity} writes over this one at {@code now}: a renewal keeps the
     * acquire time and the transition count; a takeover starts a new acquire time and counts one
     * more transition (client-go's {@code tryAcquireOrRenew}).
     */
    public LeaderElectionRecord writtenBy(String identity, Duration leaseDuration, Instant now) {
        return holderIdentity.equals(identity)
                ? new LeaderElectionRecord(identity, leaseDuration, acquireTime, now, leaderTransitions)
                : new LeaderElectionRecord(identity, leaseDuration, now, now, leaderTransitions + 1);
    }

    private static @Nullable ZonedDateTime time(@Nullable Instant instant) {
        return instant == null ? null : ZonedDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static @Nullable Instant instant(@Nullable ZonedDateTime time) {
        return time == null ? null : time.toInstant();
    }
}

package dev.operatorstarter.leaderelection;

import java.time.Duration;
import java.time.Instant;
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
}

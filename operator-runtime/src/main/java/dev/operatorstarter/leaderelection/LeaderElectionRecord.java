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
}

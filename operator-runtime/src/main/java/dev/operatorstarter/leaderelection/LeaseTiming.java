package dev.operatorstarter.leaderelection;

import dev.operatorstarter.internal.Durations;
import java.time.Duration;

/**
 * The three durations of a Lease campaign, as client-go's {@code LeaderElectionConfig} has them,
 * validated together when built: each positive, the lease duration greater than the renew
 * deadline, and the renew deadline greater than {@value #JITTER} times the retry period (room for
 * one jittered retry before the deadline). The message names the field that is out of range.
 *
 * <p>Used by leader election ({@link LeaderElectionConfig#timing()}) and by the member Leases of
 * sharding ({@code ShardingOptions.timing()}), which follow the same rules.
 *
 * @param leaseDuration how long others wait after the record last changed before taking over; default 15 s
 * @param renewDeadline how long the holder keeps trying to renew before it gives up; default 10 s
 * @param retryPeriod the pause between attempts to acquire or renew; default 2 s
 */
public record LeaseTiming(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {

    /** client-go's jitter factor for lease retries. */
    public static final double JITTER = 1.2;

    /**
     * @throws NullPointerException naming the field that is null
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public LeaseTiming {
        Durations.requirePositive(leaseDuration, "leaseDuration");
        Durations.requirePositive(renewDeadline, "renewDeadline");
        Durations.requirePositive(retryPeriod, "retryPeriod");
        if (leaseDuration.compareTo(renewDeadline) <= 0) {
            throw new IllegalArgumentException("leaseDuration (" + leaseDuration + ") must be greater than renewDeadline ("
                    + renewDeadline + ")");
        }
        if (renewDeadline.toNanos() <= JITTER * retryPeriod.toNanos()) {
            throw new IllegalArgumentException("renewDeadline (" + renewDeadline + ") must be greater than "
                    + JITTER + " × retryPeriod (" + retryPeriod + ")");
        }
    }

    /** client-go's defaults: lease 15 s, renew deadline 10 s, retry 2 s. */
    public static LeaseTiming defaults() {
        return new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }
}

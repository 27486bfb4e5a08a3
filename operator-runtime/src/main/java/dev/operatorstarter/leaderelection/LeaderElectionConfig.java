package dev.operatorstarter.leaderelection;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How a {@link LeaderElector} campaigns. Build with {@link #builder(ResourceLock, LeaderCallbacks)};
 * the durations default to client-go's and are validated together.
 *
 * @param lock where the record lives
 * @param callbacks what to do on changes
 * @param leaseDuration how long others wait after the record last changed before taking over; default 15 s
 * @param renewDeadline how long the leader keeps trying to renew before it gives up; default 10 s;
 *     must be less than the lease duration
 * @param retryPeriod the pause between attempts; default 2 s; the renew deadline must exceed 1.2 times it
 * @param releaseOnClose write an empty holder on {@link LeaderElector#close()} so another
 *     candidate takes over at once, instead of after the lease duration; default true
 * @param name names the election in logs and in the {@code leader_election_master_status} metric;
 *     default the lock's description
 * @param metrics told when this candidate starts and stops leading; default none
 * @param timeSource monotonic time for every duration this elector judges (expiry, renew deadline,
 *     retry waits), wall time for the acquire and renew times written into the record; default
 *     {@link TimeSource#system()}
 * @param threadFactory makes the elector's thread and the leader's thread; default daemon threads
 */
public record LeaderElectionConfig(ResourceLock lock, LeaderCallbacks callbacks, Duration leaseDuration,
        Duration renewDeadline, Duration retryPeriod, boolean releaseOnClose, String name, LeaderMetrics metrics,
        TimeSource timeSource, ThreadFactory threadFactory) {

    /** client-go's jitter factor: the renew deadline must leave room for a jittered retry. */
    static final double JITTER = Durations.LEASE_JITTER;

    public LeaderElectionConfig {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(callbacks, "callbacks");
        Durations.requireLeaseTimings(leaseDuration, renewDeadline, retryPeriod);
        if (lock.identity() == null || lock.identity().isBlank()) {
            throw new IllegalArgumentException("the lock's identity must not be empty");
        }
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(timeSource, "timeSource");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    public static Builder builder(ResourceLock lock, LeaderCallbacks callbacks) {
        return new Builder(lock, callbacks);
    }

    /** Builds {@link LeaderElectionConfig}; see the record for the defaults. */
    public static final class Builder {
        private final ResourceLock lock;
        private final LeaderCallbacks callbacks;
        private Duration leaseDuration = Duration.ofSeconds(15);
        private Duration renewDeadline = Duration.ofSeconds(10);
        private Duration retryPeriod = Duration.ofSeconds(2);
        private boolean releaseOnClose = true;
        private String name;
        private LeaderMetrics metrics = LeaderMetrics.NONE;
        private TimeSource timeSource = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.unnamed();

        private Builder(ResourceLock lock, LeaderCallbacks callbacks) {
            this.lock = lock;
            this.callbacks = callbacks;
        }

        public Builder leaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
            return this;
        }

        public Builder renewDeadline(Duration renewDeadline) {
            this.renewDeadline = renewDeadline;
            return this;
        }

        public Builder retryPeriod(Duration retryPeriod) {
            this.retryPeriod = retryPeriod;
            return this;
        }

        public Builder releaseOnClose(boolean releaseOnClose) {
            this.releaseOnClose = releaseOnClose;
            return this;
        }

        public Builder name(String name) {
            this.name = name;
            return this;
        }

        public Builder metrics(LeaderMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        public Builder threadFactory(ThreadFactory threadFactory) {
            this.threadFactory = threadFactory;
            return this;
        }

        public LeaderElectionConfig build() {
            return new LeaderElectionConfig(lock, callbacks, leaseDuration, renewDeadline, retryPeriod, releaseOnClose,
                    name != null ? name : lock == null ? "" : lock.describe(), metrics, timeSource, threadFactory);
        }
    }
}

package dev.operatorstarter.leaderelection;

import dev.operatorstarter.internal.DaemonThreads;
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
 * @param timing the lease duration (how long others wait after the record last changed before
 *     taking over), the renew deadline (how long the leader keeps trying to renew before it gives
 *     up) and the retry period (the pause between attempts); default {@link LeaseTiming#defaults()}:
 *     15 s, 10 s, 2 s; validated together by {@link LeaseTiming}
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
public record LeaderElectionConfig(ResourceLock lock, LeaderCallbacks callbacks, LeaseTiming timing,
        boolean releaseOnClose, String name, LeaderMetrics metrics, TimeSource timeSource, ThreadFactory threadFactory) {

    public LeaderElectionConfig {
        Objects.requireNonNull(lock, "lock");
        Objects.requireNonNull(callbacks, "callbacks");
        Objects.requireNonNull(timing, "timing");
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
        private Duration leaseDuration = LeaseTiming.defaults().leaseDuration();
        private Duration renewDeadline = LeaseTiming.defaults().renewDeadline();
        private Duration retryPeriod = LeaseTiming.defaults().retryPeriod();
        private boolean releaseOnClose = true;
        private String name;
        private LeaderMetrics metrics = LeaderMetrics.NONE;
        private TimeSource timeSource = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.unnamed();

        private Builder(ResourceLock lock, LeaderCallbacks callbacks) {
            this.lock = lock;
            this.callbacks = callbacks;
        }

        /** Sets the lease duration, renew deadline and retry period at once. */
        public Builder timing(LeaseTiming timing) {
            this.leaseDuration = timing.leaseDuration();
            this.renewDeadline = timing.renewDeadline();
            this.retryPeriod = timing.retryPeriod();
            return this;
        }

        /** Sets {@link LeaseTiming#leaseDuration()} alone; the three are validated together when built. */
        public Builder leaseDuration(Duration leaseDuration) {
            this.leaseDuration = leaseDuration;
            return this;
        }

        /** Sets {@link LeaseTiming#renewDeadline()} alone; the three are validated together when built. */
        public Builder renewDeadline(Duration renewDeadline) {
            this.renewDeadline = renewDeadline;
            return this;
        }

        /** Sets {@link LeaseTiming#retryPeriod()} alone; the three are validated together when built. */
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
            return new LeaderElectionConfig(lock, callbacks, new LeaseTiming(leaseDuration, renewDeadline, retryPeriod),
                    releaseOnClose, name != null ? name : lock == null ? "" : lock.describe(), metrics, timeSource, threadFactory);
        }
    }
}

package dev.operatorstarter.manager;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link Manager} runs.
 *
 * @param cacheSyncTimeout how long {@link Manager#start()} waits for the informers' first list;
 *     {@link Manager#startInBackground()} logs each time it passes and waits again; default 2 minutes
 * @param shutdownTimeout how long {@link Manager#close()} lets reconciles in flight finish, all
 *     controllers together, before interrupting them; default 25 s (below Kubernetes' default
 *     30 s termination grace period)
 * @param timeSource every time the manager judges; default {@link TimeSource#system()}
 * @param threadFactory makes the background start-up thread; default daemon platform threads
 */
public record ManagerOptions(Duration cacheSyncTimeout, Duration shutdownTimeout, TimeSource timeSource,
        ThreadFactory threadFactory) {

    public ManagerOptions {
        Durations.requirePositive(cacheSyncTimeout, "cacheSyncTimeout");
        Durations.requireNotNegative(shutdownTimeout, "shutdownTimeout");
        Objects.requireNonNull(timeSource, "timeSource");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    /** Every default. */
    public static ManagerOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link ManagerOptions}; see the record for the defaults. */
    public static final class Builder {
        private Duration cacheSyncTimeout = Duration.ofMinutes(2);
        private Duration shutdownTimeout = Duration.ofSeconds(25);
        private TimeSource timeSource = TimeSource.system();
        private @Nullable ThreadFactory threadFactory;

        private Builder() {
        }

        public Builder cacheSyncTimeout(Duration cacheSyncTimeout) {
            this.cacheSyncTimeout = cacheSyncTimeout;
            return this;
        }

        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
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

        public ManagerOptions build() {
            return new ManagerOptions(cacheSyncTimeout, shutdownTimeout, timeSource,
                    threadFactory != null ? threadFactory : DaemonThreads.unnamed());
        }
    }
}

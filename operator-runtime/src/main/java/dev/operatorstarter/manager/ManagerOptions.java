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
 * @param onMissingResource what start does when the API server does not serve a resource an
 *     informer needs (a CRD not installed): {@link OnMissingResource#FAIL} (the default) or
 *     {@link OnMissingResource#WAIT}
 * @param discoveryTimeout how long the server may take to answer whether it serves one resource
 *     (one discovery request, not retried); a server that does not answer in time is not taken to
 *     lack the resource; default 10 s
 */
public record ManagerOptions(Duration cacheSyncTimeout, Duration shutdownTimeout, TimeSource timeSource,
        ThreadFactory threadFactory, OnMissingResource onMissingResource, Duration discoveryTimeout) {

    /** What a manager's start does about a resource the API server does not serve. */
    public enum OnMissingResource {
        /**
         * Fail at once with a {@link ResourceNotServedException} naming each missing resource,
         * instead of waiting for caches that cannot sync (as the Java Operator SDK fails on a
         * missing CRD; controller-runtime waits out its cache-sync timeout instead).
         */
        FAIL,
        /**
         * Wait until the server serves every resource (a CRD applied after the operator, by
         * another chart, say), looking again every 2 s;
         * {@link Manager#missingResources()} says what it waits for. Informers start once all are served.
         */
        WAIT
    }

    public ManagerOptions {
        Durations.requirePositive(cacheSyncTimeout, "cacheSyncTimeout");
        Objects.requireNonNull(onMissingResource, "onMissingResource");
        Durations.requirePositive(discoveryTimeout, "discoveryTimeout");
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
        private OnMissingResource onMissingResource = OnMissingResource.FAIL;
        private Duration discoveryTimeout = Duration.ofSeconds(10);

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

        public Builder onMissingResource(OnMissingResource onMissingResource) {
            this.onMissingResource = onMissingResource;
            return this;
        }

        public Builder discoveryTimeout(Duration discoveryTimeout) {
            this.discoveryTimeout = discoveryTimeout;
            return this;
        }

        public ManagerOptions build() {
            return new ManagerOptions(cacheSyncTimeout, shutdownTimeout, timeSource,
                    threadFactory != null ? threadFactory : DaemonThreads.unnamed(), onMissingResource, discoveryTimeout);
        }
    }
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.leaderelection.LeaseTiming;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How one replica takes part in a ring. Build with {@link #builder(String, String, String)}; the
 * member Lease's durations default to leader election's and are validated the same way.
 *
 * @param ring the ring's name; a DNS label of at most 63 characters; required
 * @param shardId this replica's member id; a DNS label of at most 63 characters, unique per process; required
 * @param namespace the namespace of the member Leases; required
 * @param virtualNodes tokens per member on the hash ring; default 100, 1 to 1000
 * @param timing the member Lease's durations, validated as leader election's; default
 *     {@link LeaseTiming#defaults()}. The lease duration (15 s) is how long a member's Lease lasts
 *     unrenewed before the assigner takes it (and the duration the assigner writes into a Lease it
 *     takes); the renew deadline (10 s) how long a member keeps trying to renew before its term
 *     ends, and also the deadline of each of the assigner's writes: a write that takes longer would
 *     outlive any leader term it was started in; the retry period (2 s) the pause between a
 *     member's attempts, and how soon the assigner looks again at what waits without an event to
 *     wake it (an empty ring, a failed take)
 * @param resyncPeriod how often the assigner goes over every object even without a change; default
 *     5 minutes; zero for never
 * @param assignerWorkers objects the assigner decides on at once, per sharded resource; default 4
 * @param arrivalTimeout how long a shard holds back the first reconcile of an object that moved in
 *     until its children are in its caches; default 10 s
 * @param orphanTtl how long the Lease of a dead member stays before the assigner deletes it; default 1 minute
 * @param metrics the ring's metrics (the member's, the shard's and the assigner's; {@link ShardingMetrics#micrometer}
 *     on Micrometer); default {@link ShardingMetrics#NONE}
 * @param timeSource monotonic time for every duration judged (member states, timers), wall time for
 *     what is written into Leases; default {@link TimeSource#system()}
 * @param threadFactory makes the sharding's threads; default daemon threads
 */
public record ShardingOptions(String ring, String shardId, String namespace, int virtualNodes, LeaseTiming timing,
        Duration resyncPeriod, int assignerWorkers,
        Duration arrivalTimeout, Duration orphanTtl, ShardingMetrics metrics, TimeSource timeSource,
        ThreadFactory threadFactory) {

    private static final int MAX_VIRTUAL_NODES = 1000;

    public ShardingOptions {
        new ShardLabels(ring, shardId); // validates both, naming each
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("namespace (of the member Leases) must not be empty");
        }
        if (virtualNodes < 1 || virtualNodes > MAX_VIRTUAL_NODES) {
            throw new IllegalArgumentException("virtualNodes must be 1 to " + MAX_VIRTUAL_NODES + ", was " + virtualNodes);
        }
        Objects.requireNonNull(timing, "timing");
        Durations.requireNotNegative(resyncPeriod, "resyncPeriod");
        if (assignerWorkers < 1) {
            throw new IllegalArgumentException("assignerWorkers must be at least 1, was " + assignerWorkers);
        }
        Durations.requirePositive(arrivalTimeout, "arrivalTimeout");
        Durations.requirePositive(orphanTtl, "orphanTtl");
        Objects.requireNonNull(metrics, "metrics");
        Objects.requireNonNull(timeSource, "timeSource");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    /** The options of member {@code shardId} of {@code ring}, whose Leases are in {@code namespace}. */
    public static Builder builder(String ring, String shardId, String namespace) {
        return new Builder(ring, shardId, namespace);
    }

    /** {@link LeaseTiming#leaseDuration()} of {@link #timing()}. */
    public Duration leaseDuration() {
        return timing.leaseDuration();
    }

    /** {@link LeaseTiming#renewDeadline()} of {@link #timing()}. */
    public Duration renewDeadline() {
        return timing.renewDeadline();
    }

    /** {@link LeaseTiming#retryPeriod()} of {@link #timing()}. */
    public Duration retryPeriod() {
        return timing.retryPeriod();
    }

    /** The ring's label keys, with this replica's shard id. */
    public ShardLabels labels() {
        return new ShardLabels(ring, shardId);
    }

    /** Builds {@link ShardingOptions}; see the record for the defaults. */
    public static final class Builder {
        private final String ring;
        private final String shardId;
        private final String namespace;
        private int virtualNodes = 100;
        private Duration leaseDuration = LeaseTiming.defaults().leaseDuration();
        private Duration renewDeadline = LeaseTiming.defaults().renewDeadline();
        private Duration retryPeriod = LeaseTiming.defaults().retryPeriod();
        private Duration resyncPeriod = Duration.ofMinutes(5);
        private int assignerWorkers = 4;
        private Duration arrivalTimeout = Duration.ofSeconds(10);
        private Duration orphanTtl = Duration.ofMinutes(1);
        private ShardingMetrics metrics = ShardingMetrics.NONE;
        private TimeSource timeSource = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.unnamed();

        private Builder(String ring, String shardId, String namespace) {
            this.ring = ring;
            this.shardId = shardId;
            this.namespace = namespace;
        }

        public Builder virtualNodes(int virtualNodes) {
            this.virtualNodes = virtualNodes;
            return this;
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

        public Builder resyncPeriod(Duration resyncPeriod) {
            this.resyncPeriod = resyncPeriod;
            return this;
        }

        public Builder assignerWorkers(int assignerWorkers) {
            this.assignerWorkers = assignerWorkers;
            return this;
        }

        public Builder arrivalTimeout(Duration arrivalTimeout) {
            this.arrivalTimeout = arrivalTimeout;
            return this;
        }

        public Builder orphanTtl(Duration orphanTtl) {
            this.orphanTtl = orphanTtl;
            return this;
        }

        public Builder metrics(ShardingMetrics metrics) {
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

        /** @throws IllegalArgumentException naming the field that is out of range */
        public ShardingOptions build() {
            return new ShardingOptions(ring, shardId, namespace, virtualNodes,
                    new LeaseTiming(leaseDuration, renewDeadline, retryPeriod), resyncPeriod, assignerWorkers, arrivalTimeout, orphanTtl, metrics, timeSource, threadFactory);
        }
    }
}

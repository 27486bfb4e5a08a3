package dev.operatorstarter.drain;

import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link NodeDrainer} drains. Build with {@link #builder()}; {@link #defaults()} is kubectl
 * drain's behaviour without flags, except that DaemonSet Pods are always left alone
 * ({@code --ignore-daemonsets}).
 *
 * @param gracePeriodSeconds the grace period each evicted Pod gets; null (the default) for the
 *     Pod's own {@code terminationGracePeriodSeconds}; 0 to kill at once
 * @param force evict Pods that no controller owns, which nothing will recreate (kubectl's
 *     {@code --force}); default false: such a Pod stops the drain
 * @param deleteEmptyDirData evict Pods with an {@code emptyDir} volume, whose data goes with them
 *     (kubectl's {@code --delete-emptydir-data}); default false: such a Pod stops the drain
 * @param skipTerminatingAfter a Pod terminating for longer than this is left alone instead of
 *     waited for (kubectl's {@code --skip-wait-for-delete-timeout}: a node that is down never
 *     confirms its Pods' end); null (the default) waits for every Pod
 * @param podSelector a label selector: only the node's Pods that match are drained; default "" (all)
 * @param initialBackoff the wait before the second eviction of a Pod a budget refused; doubled
 *     after each refusal up to {@code maxBackoff}; default 1 s
 * @param maxBackoff the longest wait between two evictions of one Pod, also capping the server's
 *     {@code Retry-After}; default 10 s
 * @param pollInterval how often an evicted Pod is checked until it is gone; default 1 s, as kubectl
 * @param timeSource the time backoffs, polls and the deadline are measured on; default {@link TimeSource#system()}
 */
public record DrainOptions(@Nullable Long gracePeriodSeconds, boolean force, boolean deleteEmptyDirData,
        @Nullable Duration skipTerminatingAfter, String podSelector, Duration initialBackoff, Duration maxBackoff,
        Duration pollInterval, TimeSource timeSource) {

    public DrainOptions {
        if (gracePeriodSeconds != null && gracePeriodSeconds < 0) {
            throw new IllegalArgumentException("gracePeriodSeconds must be 0 or more, was " + gracePeriodSeconds);
        }
        if (skipTerminatingAfter != null) {
            Durations.requirePositive(skipTerminatingAfter, "skipTerminatingAfter");
        }
        Objects.requireNonNull(podSelector, "podSelector");
        Durations.requirePositive(initialBackoff, "initialBackoff");
        Durations.requirePositive(maxBackoff, "maxBackoff");
        Durations.requirePositive(pollInterval, "pollInterval");
        Objects.requireNonNull(timeSource, "timeSource");
        if (initialBackoff.compareTo(maxBackoff) > 0) {
            throw new IllegalArgumentException("initialBackoff (" + initialBackoff + ") must not exceed maxBackoff ("
                    + maxBackoff + ")");
        }
    }

    /** Every field at its default. */
    public static DrainOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.gracePeriodSeconds = gracePeriodSeconds;
        builder.force = force;
        builder.deleteEmptyDirData = deleteEmptyDirData;
        builder.skipTerminatingAfter = skipTerminatingAfter;
        builder.podSelector = podSelector;
        builder.initialBackoff = initialBackoff;
        builder.maxBackoff = maxBackoff;
        builder.pollInterval = pollInterval;
        builder.timeSource = timeSource;
        return builder;
    }

    /** Builds {@link DrainOptions}; each setter documents nothing beyond the record's field. */
    public static final class Builder {
        private @Nullable Long gracePeriodSeconds;
        private boolean force;
        private boolean deleteEmptyDirData;
        private @Nullable Duration skipTerminatingAfter;
        private String podSelector = "";
        private Duration initialBackoff = Duration.ofSeconds(1);
        private Duration maxBackoff = Duration.ofSeconds(10);
        private Duration pollInterval = Duration.ofSeconds(1);
        private TimeSource timeSource = TimeSource.system();

        private Builder() {
        }

        public Builder gracePeriodSeconds(@Nullable Long gracePeriodSeconds) {
            this.gracePeriodSeconds = gracePeriodSeconds;
            return this;
        }

        public Builder force(boolean force) {
            this.force = force;
            return this;
        }

        public Builder deleteEmptyDirData(boolean deleteEmptyDirData) {
            this.deleteEmptyDirData = deleteEmptyDirData;
            return this;
        }

        public Builder skipTerminatingAfter(@Nullable Duration skipTerminatingAfter) {
            this.skipTerminatingAfter = skipTerminatingAfter;
            return this;
        }

        public Builder podSelector(String podSelector) {
            this.podSelector = podSelector;
            return this;
        }

        public Builder initialBackoff(Duration initialBackoff) {
            this.initialBackoff = initialBackoff;
            return this;
        }

        public Builder maxBackoff(Duration maxBackoff) {
            this.maxBackoff = maxBackoff;
            return this;
        }

        public Builder pollInterval(Duration pollInterval) {
            this.pollInterval = pollInterval;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        public DrainOptions build() {
            return new DrainOptions(gracePeriodSeconds, force, deleteEmptyDirData, skipTerminatingAfter, podSelector,
                    initialBackoff, maxBackoff, pollInterval, timeSource);
        }
    }
}

package dev.operatorstarter.cache;

import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link Reflector} lists and watches. Build with {@link #builder()}; every field has a
 * default (client-go's where it has one).
 *
 * @param pageSize items per page of a list; default 500
 * @param minWatchTimeout each watch asks the server to close it after a random time in
 *     [min, 2&middot;min], so watches of many clients do not end together; default 5 minutes
 * @param stallTimeout a watch that delivers nothing, not even a bookmark, for this long is
 *     cancelled and reopened from the last resourceVersion; default 3 minutes (the API server
 *     sends each watcher a bookmark about once a minute)
 * @param initialBackoff the first backoff after a list or watch failed to open; default 800 ms
 * @param maxBackoff the backoff doubles up to this while the server answers with errors; default 30 s
 * @param unreachableBackoff the backoff doubles only up to this (never above {@code maxBackoff})
 *     while the server cannot be reached at all: connection refused, reset or timed out before any
 *     answer. Such attempts cost the server nothing, and the informer is back within about this long
 *     once the server answers again; default 1 s (with full jitter, so informers do not reconnect in
 *     step)
 * @param backoffReset after this long without a failure the backoff starts over; it also starts
 *     over whenever a watch opens or a list succeeds; default 2 minutes
 * @param streamingList start with a streaming list ({@code sendInitialEvents=true}) instead of a
 *     paginated list; the reflector falls back to listing for good when the server refuses it
 *     (400 or 422); bookmarks amid the initial events are tolerated; default true
 * @param errorHandler told about every failed list and watch (after logging); default: nothing
 * @param timeSource every time the reflector and its informer judge (monotonic): watch and list
 *     durations, the backoff reset, the wait of a backoff, the informer's handler resyncs and
 *     {@link SharedInformerFactory#waitForCacheSync}'s deadline; default {@link TimeSource#system()}.
 *     The stall timeout is Reactor's timer and stays on real time
 */
public record ReflectorOptions(int pageSize, Duration minWatchTimeout, Duration stallTimeout, Duration initialBackoff,
        Duration maxBackoff, Duration unreachableBackoff, Duration backoffReset, boolean streamingList,
        Consumer<ReflectorException> errorHandler, TimeSource timeSource) {

    public ReflectorOptions {
        if (pageSize < 1) {
            throw new IllegalArgumentException("pageSize must be at least 1, was " + pageSize);
        }
        Durations.requirePositive(minWatchTimeout, "minWatchTimeout");
        if (minWatchTimeout.toSeconds() < 1) {
            throw new IllegalArgumentException("minWatchTimeout must be at least 1 s, was " + minWatchTimeout);
        }
        Durations.requirePositive(stallTimeout, "stallTimeout");
        Durations.requirePositive(initialBackoff, "initialBackoff");
        Durations.requirePositive(maxBackoff, "maxBackoff");
        Durations.requirePositive(unreachableBackoff, "unreachableBackoff");
        Durations.requirePositive(backoffReset, "backoffReset");
        if (maxBackoff.compareTo(initialBackoff) < 0) {
            throw new IllegalArgumentException("maxBackoff (" + maxBackoff + ") must not be less than initialBackoff ("
                    + initialBackoff + ")");
        }
        Objects.requireNonNull(errorHandler, "errorHandler");
        Objects.requireNonNull(timeSource, "timeSource");
    }

    public static ReflectorOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().pageSize(pageSize).minWatchTimeout(minWatchTimeout).stallTimeout(stallTimeout)
                .initialBackoff(initialBackoff).maxBackoff(maxBackoff).unreachableBackoff(unreachableBackoff)
                .backoffReset(backoffReset)
                .streamingList(streamingList).errorHandler(errorHandler).timeSource(timeSource);
    }

    /** Builds {@link ReflectorOptions}; see the record for the defaults. */
    public static final class Builder {
        private int pageSize = 500;
        private Duration minWatchTimeout = Duration.ofMinutes(5);
        private Duration stallTimeout = Duration.ofMinutes(3);
        private Duration initialBackoff = Duration.ofMillis(800);
        private Duration maxBackoff = Duration.ofSeconds(30);
        private Duration unreachableBackoff = Duration.ofSeconds(1);
        private Duration backoffReset = Duration.ofMinutes(2);
        private boolean streamingList = true;
        private Consumer<ReflectorException> errorHandler = error -> { };
        private TimeSource timeSource = TimeSource.system();

        private Builder() {
        }

        public Builder pageSize(int pageSize) {
            this.pageSize = pageSize;
            return this;
        }

        public Builder minWatchTimeout(Duration minWatchTimeout) {
            this.minWatchTimeout = minWatchTimeout;
            return this;
        }

        public Builder stallTimeout(Duration stallTimeout) {
            this.stallTimeout = stallTimeout;
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

        public Builder unreachableBackoff(Duration unreachableBackoff) {
            this.unreachableBackoff = unreachableBackoff;
            return this;
        }

        public Builder backoffReset(Duration backoffReset) {
            this.backoffReset = backoffReset;
            return this;
        }

        public Builder streamingList(boolean streamingList) {
            this.streamingList = streamingList;
            return this;
        }

        public Builder errorHandler(Consumer<ReflectorException> errorHandler) {
            this.errorHandler = errorHandler;
            return this;
        }

        public Builder timeSource(TimeSource timeSource) {
            this.timeSource = timeSource;
            return this;
        }

        public ReflectorOptions build() {
            return new ReflectorOptions(pageSize, minWatchTimeout, stallTimeout, initialBackoff, maxBackoff,
                    unreachableBackoff, backoffReset, streamingList, errorHandler, timeSource);
        }
    }
}

package dev.operatorstarter.event;

import dev.operatorstarter.internal.DaemonThreads;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadFactory;

/**
 * How an {@link EventBroadcaster} writes. Build with {@link #builder()}.
 *
 * @param reportingInstance who reports: typically the pod name; default the host name
 * @param queueCapacity events waiting to be written; more are dropped; default 1,000
 * @param seriesWindow a repeat of an event (same object, reason, action, type and controller)
 *     within this time of its last occurrence joins its series; default 6 minutes
 * @param seriesFlushPeriod at most one series update per event in this time; default 30 s
 * @param spamBurst new events one object may cause at once; default 25 (client-go's)
 * @param spamRefill one more new event per object allowed after each such period; default 5 minutes
 * @param cacheSize events (and objects) remembered for series and spam decisions; default 4,096
 * @param timeSource wall time for the events' timestamps, monotonic time for the series window, the
 *     flush period and the spam filter's refill; default {@link TimeSource#system()}
 * @param threadFactory makes the writer thread; default a daemon thread
 */
public record EventOptions(String reportingInstance, int queueCapacity, Duration seriesWindow,
        Duration seriesFlushPeriod, int spamBurst, Duration spamRefill, int cacheSize, TimeSource timeSource,
        ThreadFactory threadFactory) {

    public EventOptions {
        Objects.requireNonNull(reportingInstance, "reportingInstance");
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, was " + queueCapacity);
        }
        Durations.requirePositive(seriesWindow, "seriesWindow");
        Durations.requirePositive(seriesFlushPeriod, "seriesFlushPeriod");
        Durations.requirePositive(spamRefill, "spamRefill");
        if (spamBurst < 1) {
            throw new IllegalArgumentException("spamBurst must be at least 1, was " + spamBurst);
        }
        if (cacheSize < 16) {
            throw new IllegalArgumentException("cacheSize must be at least 16, was " + cacheSize);
        }
        Objects.requireNonNull(timeSource, "timeSource");
        Objects.requireNonNull(threadFactory, "threadFactory");
    }

    public static EventOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link EventOptions}; see the record for the defaults. */
    public static final class Builder {
        private String reportingInstance = hostName();
        private int queueCapacity = 1000;
        private Duration seriesWindow = Duration.ofMinutes(6);
        private Duration seriesFlushPeriod = Duration.ofSeconds(30);
        private int spamBurst = 25;
        private Duration spamRefill = Duration.ofMinutes(5);
        private int cacheSize = 4096;
        private TimeSource timeSource = TimeSource.system();
        private ThreadFactory threadFactory = DaemonThreads.named("event-broadcaster");

        private Builder() {
        }

        public Builder reportingInstance(String reportingInstance) {
            this.reportingInstance = reportingInstance;
            return this;
        }

        public Builder queueCapacity(int queueCapacity) {
            this.queueCapacity = queueCapacity;
            return this;
        }

        public Builder seriesWindow(Duration seriesWindow) {
            this.seriesWindow = seriesWindow;
            return this;
        }

        public Builder seriesFlushPeriod(Duration seriesFlushPeriod) {
            this.seriesFlushPeriod = seriesFlushPeriod;
            return this;
        }

        public Builder spamBurst(int spamBurst) {
            this.spamBurst = spamBurst;
            return this;
        }

        public Builder spamRefill(Duration spamRefill) {
            this.spamRefill = spamRefill;
            return this;
        }

        public Builder cacheSize(int cacheSize) {
            this.cacheSize = cacheSize;
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

        public EventOptions build() {
            return new EventOptions(reportingInstance, queueCapacity, seriesWindow, seriesFlushPeriod, spamBurst,
                    spamRefill, cacheSize, timeSource, threadFactory);
        }

        private static String hostName() {
            String host = System.getenv("HOSTNAME");
            if (host != null && !host.isBlank()) {
                return host;
            }
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                return "unknown";
            }
        }
    }
}

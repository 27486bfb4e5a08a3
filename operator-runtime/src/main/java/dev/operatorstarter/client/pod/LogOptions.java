package dev.operatorstarter.client.pod;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What part of a container's log to read: the query of {@code pods/log} (client-go's
 * {@code PodLogOptions}). Every field is optional; the defaults read the whole current log of the
 * Pod's only (or default) container and end.
 *
 * @param container the container; default: the Pod's only container, or the one its
 *     {@code kubectl.kubernetes.io/default-container} annotation names (the server refuses with
 *     400 when there are several and none is named)
 * @param follow keep the stream open and deliver lines as the container writes them; default false
 * @param previous the log of the container's previous (terminated) instance; default false
 * @param timestamps prefix each line with its RFC 3339 timestamp; default false
 * @param sinceSeconds only lines newer than this many seconds; default none; not with {@code sinceTime}
 * @param sinceTime only lines at or after this time; default none; not with {@code sinceSeconds}
 * @param tailLines only the last this many lines (then, with {@code follow}, the new ones); default all
 * @param limitBytes stop after this many bytes of log; default no limit
 */
public record LogOptions(@Nullable String container, boolean follow, boolean previous, boolean timestamps,
        @Nullable Long sinceSeconds, @Nullable Instant sinceTime, @Nullable Long tailLines,
        @Nullable Long limitBytes) {

    /** Checks each field; the message names the field. */
    public LogOptions {
        if (container != null && container.isBlank()) {
            throw new IllegalArgumentException("container must not be blank");
        }
        if (sinceSeconds != null && sinceSeconds < 1) {
            throw new IllegalArgumentException("sinceSeconds must be at least 1, was " + sinceSeconds);
        }
        if (sinceSeconds != null && sinceTime != null) {
            throw new IllegalArgumentException("sinceSeconds and sinceTime exclude each other; set one");
        }
        if (tailLines != null && tailLines < 0) {
            throw new IllegalArgumentException("tailLines must not be negative, was " + tailLines);
        }
        if (limitBytes != null && limitBytes < 1) {
            throw new IllegalArgumentException("limitBytes must be at least 1, was " + limitBytes);
        }
    }

    /** The whole current log of the default container. */
    public static LogOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link LogOptions}; each setter's default is on the record. */
    public static final class Builder {
        private @Nullable String container;
        private boolean follow;
        private boolean previous;
        private boolean timestamps;
        private @Nullable Long sinceSeconds;
        private @Nullable Instant sinceTime;
        private @Nullable Long tailLines;
        private @Nullable Long limitBytes;

        private Builder() {
        }

        public Builder container(@Nullable String container) {
            this.container = container;
            return this;
        }

        public Builder follow(boolean follow) {
            this.follow = follow;
            return this;
        }

        public Builder previous(boolean previous) {
            this.previous = previous;
            return this;
        }

        public Builder timestamps(boolean timestamps) {
            this.timestamps = timestamps;
            return this;
        }

        public Builder sinceSeconds(@Nullable Long sinceSeconds) {
            this.sinceSeconds = sinceSeconds;
            return this;
        }

        public Builder sinceTime(@Nullable Instant sinceTime) {
            this.sinceTime = sinceTime;
            return this;
        }

        public Builder tailLines(@Nullable Long tailLines) {
            this.tailLines = tailLines;
            return this;
        }

        public Builder limitBytes(@Nullable Long limitBytes) {
            this.limitBytes = limitBytes;
            return this;
        }

        public LogOptions build() {
            return new LogOptions(container, follow, previous, timestamps, sinceSeconds, sinceTime, tailLines,
                    limitBytes);
        }
    }
}

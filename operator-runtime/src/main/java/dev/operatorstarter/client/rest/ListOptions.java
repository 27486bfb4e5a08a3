package dev.operatorstarter.client.rest;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The query of a list or watch, as in {@code metav1.ListOptions}. Every field defaults to unset
 * (the server's default). Build with {@link #builder()}.
 *
 * @param labelSelector for example {@code app=web,tier!=cache}
 * @param fieldSelector for example {@code metadata.name=x}
 * @param limit the page size of a list; 0 for no paging
 * @param continueToken the {@code continue} token from the previous page
 * @param resourceVersion where to start: "" (most recent, from etcd), "0" (any, from the watch cache), or a version
 * @param resourceVersionMatch {@code Exact} or {@code NotOlderThan}, with a resourceVersion
 * @param timeoutSeconds how long the server keeps a watch (or list) open
 * @param allowWatchBookmarks ask for BOOKMARK events on a watch
 * @param sendInitialEvents a watch starts with synthetic ADDED events for the current state (streaming list)
 */
public record ListOptions(@Nullable String labelSelector, @Nullable String fieldSelector, long limit,
        @Nullable String continueToken, @Nullable String resourceVersion, @Nullable String resourceVersionMatch,
        @Nullable Long timeoutSeconds, boolean allowWatchBookmarks, @Nullable Boolean sendInitialEvents) {

    public ListOptions {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be 0 or more, was " + limit);
        }
        if (timeoutSeconds != null && timeoutSeconds < 0) {
            throw new IllegalArgumentException("timeoutSeconds must be 0 or more, was " + timeoutSeconds);
        }
        if (resourceVersionMatch != null && !resourceVersionMatch.equals("Exact")
                && !resourceVersionMatch.equals("NotOlderThan")) {
            throw new IllegalArgumentException("resourceVersionMatch must be Exact or NotOlderThan, was "
                    + resourceVersionMatch);
        }
    }

    /** No selector, no paging: everything. */
    public static ListOptions none() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().labelSelector(labelSelector).fieldSelector(fieldSelector).limit(limit)
                .continueToken(continueToken).resourceVersion(resourceVersion)
                .resourceVersionMatch(resourceVersionMatch).timeoutSeconds(timeoutSeconds)
                .allowWatchBookmarks(allowWatchBookmarks).sendInitialEvents(sendInitialEvents);
    }

    /** The query parameters, in the API's names. */
    Map<String, String> toQuery() {
        Map<String, String> query = new LinkedHashMap<>();
        put(query, "labelSelector", labelSelector);
        put(query, "fieldSelector", fieldSelector);
        if (limit > 0) {
            query.put("limit", Long.toString(limit));
        }
        put(query, "continue", continueToken);
        put(query, "resourceVersion", resourceVersion);
        put(query, "resourceVersionMatch", resourceVersionMatch);
        if (timeoutSeconds != null) {
            query.put("timeoutSeconds", Long.toString(timeoutSeconds));
        }
        if (allowWatchBookmarks) {
            query.put("allowWatchBookmarks", "true");
        }
        if (sendInitialEvents != null) {
            query.put("sendInitialEvents", sendInitialEvents.toString());
        }
        return query;
    }

    private static void put(Map<String, String> query, String name, @Nullable String value) {
        if (value != null && !value.isEmpty()) {
            query.put(name, value);
        }
    }

    /** Builds {@link ListOptions}. */
    public static final class Builder {
        private @Nullable String labelSelector;
        private @Nullable String fieldSelector;
        private long limit;
        private @Nullable String continueToken;
        private @Nullable String resourceVersion;
        private @Nullable String resourceVersionMatch;
        private @Nullable Long timeoutSeconds;
        private boolean allowWatchBookmarks;
        private @Nullable Boolean sendInitialEvents;

        private Builder() {
        }

        public Builder labelSelector(@Nullable String labelSelector) {
            this.labelSelector = labelSelector;
            return this;
        }

        public Builder fieldSelector(@Nullable String fieldSelector) {
            this.fieldSelector = fieldSelector;
            return this;
        }

        public Builder limit(long limit) {
            this.limit = limit;
            return this;
        }

        public Builder continueToken(@Nullable String continueToken) {
            this.continueToken = continueToken;
            return this;
        }

        public Builder resourceVersion(@Nullable String resourceVersion) {
            this.resourceVersion = resourceVersion;
            return this;
        }

        public Builder resourceVersionMatch(@Nullable String resourceVersionMatch) {
            this.resourceVersionMatch = resourceVersionMatch;
            return this;
        }

        public Builder timeoutSeconds(@Nullable Long timeoutSeconds) {
            this.timeoutSeconds = timeoutSeconds;
            return this;
        }

        public Builder allowWatchBookmarks(boolean allowWatchBookmarks) {
            this.allowWatchBookmarks = allowWatchBookmarks;
            return this;
        }

        public Builder sendInitialEvents(@Nullable Boolean sendInitialEvents) {
            this.sendInitialEvents = sendInitialEvents;
            return this;
        }

        public ListOptions build() {
            return new ListOptions(labelSelector, fieldSelector, limit, continueToken, resourceVersion,
                    resourceVersionMatch, timeoutSeconds, allowWatchBookmarks, sendInitialEvents);
        }
    }
}

package dev.operatorstarter.cache;

import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * How an {@link ObjectReader} reads. Build with {@link #builder()}.
 *
 * @param uncached the resources whose reads always go to the API server, even when an informer
 *     caches them, by plural name and, outside the core group, group ({@code secrets},
 *     {@code deployments.apps}: {@code GroupVersionResource.groupResource()}); default none. For
 *     objects that must be read fresh (a Secret another component just rotated) where the cache's
 *     lag matters more than the request's cost
 * @param metrics receives one call per read; default {@link ReaderMetrics#NONE}
 */
public record ReaderOptions(Set<String> uncached, ReaderMetrics metrics) {

    public ReaderOptions {
        for (String resource : uncached) {
            if (resource == null || !LabelSelector.DNS_SUBDOMAIN.matcher(resource).matches()) {
                throw new IllegalArgumentException("uncached: \"" + resource + "\" is not a resource name; "
                        + "expected plural[.group] in lower case, for example secrets or deployments.apps");
            }
        }
        uncached = Set.copyOf(uncached);
        Objects.requireNonNull(metrics, "metrics");
    }

    public static ReaderOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link ReaderOptions}; see the record for the defaults. */
    public static final class Builder {
        private final Set<String> uncached = new LinkedHashSet<>();
        private ReaderMetrics metrics = ReaderMetrics.NONE;

        private Builder() {
        }

        /** Reads of {@code type} always go to the API server. */
        public Builder uncached(Class<? extends HasMetadata> type) {
            uncached.add(ResourceType.of(type).groupVersionResource().groupResource());
            return this;
        }

        /** Reads of {@code resource} ({@code plural[.group]}) always go to the API server. */
        public Builder uncached(String resource) {
            uncached.add(resource);
            return this;
        }

        public Builder metrics(ReaderMetrics metrics) {
            this.metrics = metrics;
            return this;
        }

        public ReaderOptions build() {
            return new ReaderOptions(uncached, metrics);
        }
    }
}

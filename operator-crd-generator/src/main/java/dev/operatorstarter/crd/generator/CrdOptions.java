package dev.operatorstarter.crd.generator;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the generator adds around the CRD it derives from the classes. Build with
 * {@link #builder()}; {@link #defaults()} has every default.
 *
 * @param annotations metadata annotations of the CRD, for example {@code helm.sh/resource-policy:
 *     keep}; written sorted by key; default none
 * @param labels metadata labels of the CRD; written sorted by key; default none
 * @param header a comment written above the YAML document, one {@code #} line per line of text
 *     (for example "Generated from ...; do not edit"); default none (empty)
 * @param conversionWebhook where the API server converts between the versions, making
 *     {@code spec.conversion} {@code strategy: Webhook}; default none, the server's {@code None}
 *     strategy (the versions share the stored object as it is)
 */
public record CrdOptions(Map<String, String> annotations, Map<String, String> labels, String header,
        @Nullable ConversionWebhook conversionWebhook) {

    public CrdOptions {
        annotations = sortedCopy(annotations, "annotations");
        labels = sortedCopy(labels, "labels");
        Objects.requireNonNull(header, "header");
    }

    /** Every option at its default. */
    public static CrdOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    private static Map<String, String> sortedCopy(Map<String, String> map, String field) {
        Objects.requireNonNull(map, field);
        map.forEach((key, value) -> {
            if (key == null || key.isEmpty() || value == null) {
                throw new IllegalArgumentException(field + " must have non-empty keys and non-null values, had "
                        + key + "=" + value);
            }
        });
        return java.util.Collections.unmodifiableMap(new TreeMap<>(map));
    }

    /** Builds {@link CrdOptions}; validation happens in {@link #build()}. */
    public static final class Builder {
        private final Map<String, String> annotations = new TreeMap<>();
        private final Map<String, String> labels = new TreeMap<>();
        private String header = "";
        private @Nullable ConversionWebhook conversionWebhook;

        private Builder() {
        }

        /** Adds (or replaces) one metadata annotation. */
        public Builder annotation(String key, String value) {
            annotations.put(key, value);
            return this;
        }

        /** Adds (or replaces) one metadata label. */
        public Builder label(String key, String value) {
            labels.put(key, value);
            return this;
        }

        public Builder header(String header) {
            this.header = header;
            return this;
        }

        /** Converts between the versions through this webhook. */
        public Builder conversionWebhook(ConversionWebhook conversionWebhook) {
            this.conversionWebhook = conversionWebhook;
            return this;
        }

        public CrdOptions build() {
            return new CrdOptions(annotations, labels, header, conversionWebhook);
        }
    }
}

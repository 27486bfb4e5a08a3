package dev.operatorstarter.crd.generator;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the generator adds around the CRD it derives from the classes. Build with
 * {@link #builder()}; {@link #defaults()} has every default.
 *
 * @param annotations metadata annotations of the CRD, for example {@code helm.sh/resource-policy:
 *     keep}; written sorted by key; default none
 * @param labels metadata labels of the CRD; written sorted by key; default none
 * @param header a comment written above the YAML document, one {@code #} line per line of text
 *     (for example "Generated from ...; do not edit"); default none (empty)
 */
public record CrdOptions(Map<String, String> annotations, Map<String, String> labels, String header) {

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

        public CrdOptions build() {
            return new CrdOptions(annotations, labels, header);
        }
    }
}

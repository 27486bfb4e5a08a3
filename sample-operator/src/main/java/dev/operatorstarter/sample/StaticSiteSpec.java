package dev.operatorstarter.sample;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a {@link StaticSite} serves, and how many web servers serve it.
 *
 * @param content the site's files, file name to file text; the API server requires at least one
 *        and allows letters, digits, {@code -}, {@code _} and {@code .} in names
 * @param replicas web-server replicas, 0 to 10; the API server defaults it to 1
 */
public record StaticSiteSpec(Map<String, String> content, int replicas) {

    public StaticSiteSpec {
        content = content == null ? Map.of() : new TreeMap<>(content); // sorted: a stable content hash
        if (replicas < 0 || replicas > 10) {
            throw new IllegalArgumentException("spec.replicas must be between 0 and 10, was " + replicas);
        }
    }
}

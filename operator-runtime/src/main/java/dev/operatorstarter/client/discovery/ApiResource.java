package dev.operatorstarter.client.discovery;

import java.util.List;

/**
 * One resource the server serves, in one group version.
 *
 * @param group the API group, "" for core
 * @param version the version
 * @param resource the plural name used in URLs
 * @param kind the kind of its objects
 * @param namespaced whether its objects live in namespaces
 * @param verbs what the server allows on it (get, list, watch, create, ...)
 * @param subresources for example {@code status}, {@code scale}
 */
public record ApiResource(String group, String version, String resource, String kind, boolean namespaced,
        List<String> verbs, List<String> subresources) {

    public ApiResource {
        verbs = List.copyOf(verbs);
        subresources = List.copyOf(subresources);
    }

    /** {@code group/version}, or {@code version} for core. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }
}

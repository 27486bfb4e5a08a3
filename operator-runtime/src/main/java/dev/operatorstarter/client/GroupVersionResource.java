package dev.operatorstarter.client;

import java.util.Objects;

/**
 * A resource's group ("" for core), version and plural name, for example
 * {@code ("apps", "v1", "deployments")}.
 */
public record GroupVersionResource(String group, String version, String resource) {

    public GroupVersionResource {
        Objects.requireNonNull(group, "group");
        if (version == null || version.isEmpty()) {
            throw new IllegalArgumentException("version must not be empty");
        }
        if (resource == null || resource.isEmpty()) {
            throw new IllegalArgumentException("resource must not be empty");
        }
    }

    /** {@code group/version}, or just {@code version} for the core group. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** {@code resource.group}, or just {@code resource} for the core group (kubectl's form, e.g. {@code deployments.apps}). */
    public String groupResource() {
        return group.isEmpty() ? resource : resource + "." + group;
    }

    @Override
    public String toString() {
        return group.isEmpty() ? version + "/" + resource : group + "/" + version + "/" + resource;
    }
}

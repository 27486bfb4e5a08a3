package dev.operatorstarter.client;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a typed client needs to know about a resource: where it lives in the API, whether it is
 * namespaced, and the Java class its objects decode into.
 *
 * @param group the API group, "" for core
 * @param version the API version
 * @param plural the resource name in URLs, for example {@code deployments}
 * @param kind the kind, for example {@code Deployment}; null when unknown (a dynamic resource)
 * @param namespaced whether objects live in namespaces
 * @param javaClass the class objects decode into
 */
public record ResourceType<T extends HasMetadata>(String group, String version, String plural, @Nullable String kind,
        boolean namespaced, Class<T> javaClass) {

    public ResourceType {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(plural, "plural");
        Objects.requireNonNull(javaClass, "javaClass");
    }

    /**
     * The resource of a model class, from its {@code @Group}, {@code @Version} (and optional
     * {@code @Plural}/{@code @Kind}) annotations; namespaced when it implements {@link Namespaced}.
     * Works for the fabric8 model classes and for custom resource classes annotated the same way.
     */
    public static <T extends HasMetadata> ResourceType<T> of(Class<T> type) {
        String version = HasMetadata.getVersion(type);
        if (version == null || version.isEmpty()) {
            throw new IllegalArgumentException(type.getName() + " has no @Version annotation; annotate it with "
                    + "io.fabric8.kubernetes.model.annotation.Group and Version");
        }
        String group = HasMetadata.getGroup(type);
        return new ResourceType<>(group == null ? "" : group, version, HasMetadata.getPlural(type),
                HasMetadata.getKind(type), Namespaced.class.isAssignableFrom(type), type);
    }

    /** A resource without a Java class of its own, decoded as {@link GenericKubernetesResource}. */
    public static ResourceType<GenericKubernetesResource> generic(GroupVersionResource resource, @Nullable String kind,
            boolean namespaced) {
        return new ResourceType<>(resource.group(), resource.version(), resource.resource(), kind, namespaced,
                GenericKubernetesResource.class);
    }

    /** {@code group/version}, or {@code version} for core. */
    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    public GroupVersionResource groupVersionResource() {
        return new GroupVersionResource(group, version, plural);
    }

    @Override
    public String toString() {
        return (kind == null ? plural : kind) + " (" + groupVersionResource() + ", "
                + (namespaced ? "namespaced" : "cluster-scoped") + ")";
    }
}

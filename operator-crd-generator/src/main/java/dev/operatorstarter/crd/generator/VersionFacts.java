package dev.operatorstarter.crd.generator;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.crd.Categories;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * What one custom resource class says about its resource and its version, read from its
 * annotations the way the runtime reads them ({@link ResourceType#of}), so the CRD names the
 * resource exactly where the client looks for it.
 *
 * @param javaClass the class
 * @param type group, version, plural, kind and scope, as the client sees them
 * @param singular {@code @Singular}, else the kind in lower case
 * @param shortNames {@code @ShortNames}, else none
 * @param categories {@code @Categories}, else none
 * @param served {@code @Version(served)}
 * @param storage {@code @Version(storage)}
 * @param deprecated {@code @Version(deprecated)}
 * @param deprecationWarning {@code @Version(deprecationWarning)}, empty for the server's default
 */
record VersionFacts(Class<?> javaClass, ResourceType<?> type, String singular, List<String> shortNames,
        List<String> categories, boolean served, boolean storage, boolean deprecated, String deprecationWarning) {

    static VersionFacts of(Class<? extends CustomResource<?, ?>> javaClass) {
        Version version = javaClass.getAnnotation(Version.class);
        if (version == null || version.value().isEmpty()) {
            throw new CrdGenerationException(javaClass.getName() + " has no @Version: annotate it with "
                    + "io.fabric8.kubernetes.model.annotation.Group and Version");
        }
        ResourceType<?> type = ResourceType.of(javaClass);
        if (type.group().isEmpty()) {
            throw new CrdGenerationException(javaClass.getName() + " has no @Group: a custom resource needs an "
                    + "API group with a dot, for example @Group(\"example.com\")");
        }
        ShortNames shortNames = javaClass.getAnnotation(ShortNames.class);
        Categories categories = javaClass.getAnnotation(Categories.class);
        return new VersionFacts(javaClass, type, HasMetadata.getSingular(javaClass),
                shortNames == null ? List.of() : List.of(shortNames.value()),
                categories == null ? List.of() : List.of(categories.value()), version.served(), version.storage(),
                version.deprecated(), version.deprecationWarning());
    }

    String version() {
        return type.version();
    }

    /** {@code plural.group}, the CRD's name. */
    String crdName() {
        return type.plural() + "." + type.group();
    }

    @Override
    public String toString() {
        return javaClass.getName() + " (" + type.version() + ")";
    }
}

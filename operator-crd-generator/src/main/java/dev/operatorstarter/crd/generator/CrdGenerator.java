package dev.operatorstarter.crd.generator;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.List;

/**
 * Generates a CustomResourceDefinition from custom resource classes: names and scope from the
 * class, an OpenAPI v3 schema from its spec and status types, subresources and printer columns
 * from {@code dev.operatorstarter.crd} annotations, one CRD version per class.
 *
 * <pre>{@code
 * CrdGenerator generator = CrdGenerator.create(CrdOptions.builder()
 *         .annotation("helm.sh/resource-policy", "keep").build());
 * String yaml = generator.toYaml(generator.generate(StaticSite.class));
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The schema names exactly the properties the runtime's client writes: types are
 *       introspected with the client's own Jackson configuration ({@code @JsonProperty} names,
 *       {@code @JsonIgnore}, records, getters, {@code @JsonValue}), never by reading fields.</li>
 *   <li>Output is deterministic: the same classes give the same CRD and the same YAML bytes,
 *       whatever the order of the classes or of their members. Properties and required lists are
 *       sorted by name; versions by Kubernetes' version priority (GA, then beta, then alpha).</li>
 *   <li>A class that cannot be described is refused with a {@link CrdGenerationException} naming
 *       the class and the property path ({@code spec.items[].name}); nothing is skipped silently
 *       except Jackson's "any" properties ({@code @JsonAnyGetter}), which a schema cannot name:
 *       add {@code @PreserveUnknownFields} to keep them.</li>
 * </ul>
 *
 * <p>Instances are immutable and thread-safe. Generating reads classes and annotations; the only
 * code of the classes it runs is what Jackson runs to write enum constants (a {@code @JsonValue}
 * method, for instance).
 */
public interface CrdGenerator {

    /** A generator with these options. */
    static CrdGenerator create(CrdOptions options) {
        return new IntrospectingCrdGenerator(options);
    }

    /**
     * The CRD of one resource, one version per class. The classes must share group, kind, plural,
     * singular, scope, short names and categories, have distinct versions, and exactly one of
     * them must be the storage version ({@code @Version(storage = true)}, fabric8's default).
     *
     * @param versions the classes, one per version, in any order
     * @return a new CRD, {@code apiextensions.k8s.io/v1}
     * @throws CrdGenerationException if the classes disagree or a type cannot be described; the
     *         message names the class and the property path
     * @throws IllegalArgumentException if {@code versions} is empty
     */
    CustomResourceDefinition generate(List<Class<? extends CustomResource<?, ?>>> versions);

    /** The CRD of a resource that has one version: {@link #generate(List)} of that class. */
    default CustomResourceDefinition generate(Class<? extends CustomResource<?, ?>> version) {
        return generate(List.of(version));
    }

    /**
     * The CRD as a YAML document: the options' header comment first, then the CRD with its fields
     * in the order Kubernetes prints them and its maps in the order generated (sorted). The same
     * CRD always gives the same bytes, ending in one newline.
     */
    String toYaml(CustomResourceDefinition crd);
}

package ${package};

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * What the operator reports.
 *
 * @param observedGeneration the generation of the spec last applied
 * @param configMap the name of the ConfigMap the operator keeps
 */
public record ${kind}Status(
        @JsonPropertyDescription("The generation of the spec last applied.") Long observedGeneration,
        @JsonPropertyDescription("The ConfigMap the operator keeps.") String configMap) {
}

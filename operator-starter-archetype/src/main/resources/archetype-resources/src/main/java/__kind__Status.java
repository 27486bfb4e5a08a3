package ${package};

/**
 * What the operator reports.
 *
 * @param observedGeneration the generation of the spec last applied
 * @param configMap the name of the ConfigMap the operator keeps
 */
public record ${kind}Status(Long observedGeneration, String configMap) {
}

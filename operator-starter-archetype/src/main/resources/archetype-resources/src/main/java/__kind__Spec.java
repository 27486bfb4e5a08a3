package ${package};

/**
 * What the user asks for.
 *
 * @param message the text the operator writes into the ${kind}'s ConfigMap
 */
public record ${kind}Spec(String message) {
}

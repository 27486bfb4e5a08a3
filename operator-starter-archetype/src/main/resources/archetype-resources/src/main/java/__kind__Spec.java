package ${package};

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;

/**
 * What the user asks for. The annotations become the CRD's schema: the API server refuses a
 * ${kind} without a message, or with one longer than 1024 characters.
 *
 * @param message the text the operator writes into the ${kind}'s ConfigMap
 */
public record ${kind}Spec(
        @JsonPropertyDescription("The text the operator writes into the ConfigMap.") @NotNull @Size(max = 1024)
        String message) {
}

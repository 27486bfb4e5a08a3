package dev.operatorstarter.crd.generator.shapes;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Negative;
import jakarta.validation.constraints.NegativeOrZero;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Jakarta Validation constraints and required properties, on record components. */
@Group(Shapes.GROUP)
@Version("v1")
public class Constraints extends CustomResource<Constraints.Spec, Void> implements Namespaced {

    public record Spec(
            @Min(1) @Max(10) int replicas,
            @DecimalMin(value = "0", inclusive = false) @DecimalMax("1.5") double ratio,
            @Positive Long positive,
            @PositiveOrZero int notNegative,
            @Negative int negative,
            @NegativeOrZero int notPositive,
            @Min(1) @Positive @Max(5) Integer strictest,
            @Size(min = 3, max = 63) @Pattern(regexp = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$") String name,
            @Size(max = 5) List<String> tags,
            @Size(min = 1, max = 3) Map<String, String> labels,
            @NotNull String required,
            @JsonProperty(required = true) String requiredByJackson,
            @NotEmpty String notEmpty,
            @NotEmpty List<String> notEmptyList,
            @NotEmpty Map<String, String> notEmptyMap,
            @NotBlank String notBlank,
            @Min(0) Optional<Integer> optionalCount) {
    }
}

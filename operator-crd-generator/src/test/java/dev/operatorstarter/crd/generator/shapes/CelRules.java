package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.ValidationRule;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * CEL validation rules on the resource, on a type and on properties, with every option. Strings
 * that rules read have a maximum length: the API server refuses rules whose estimated cost is
 * unbounded.
 */
@Group(Shapes.GROUP)
@Version("v1")
@ValidationRule(rule = "self.metadata.name.startsWith('cel-')", message = "names start with cel-")
public class CelRules extends CustomResource<CelRules.Spec, Void> implements Namespaced {

    @ValidationRule(rule = "self.minReplicas <= self.maxReplicas", message = "minReplicas must not exceed maxReplicas",
            fieldPath = ".maxReplicas", reason = "FieldValueInvalid")
    @ValidationRule(rule = "!has(self.mode) || self.mode != 'legacy' || self.maxReplicas == 1",
            messageExpression = "self.mode + ' mode runs one replica'")
    public record Spec(
            int minReplicas,
            int maxReplicas,
            @ValidationRule(rule = "self == oldSelf", message = "mode is immutable", reason = "FieldValueForbidden")
            @Size(max = 16) String mode,
            @ValidationRule(rule = "self.all(t, t.size() <= 20)", message = "tags are at most 20 characters")
            @Size(max = 10) List<String> tags,
            @ValidationRule(rule = "!oldSelf.hasValue() || self >= oldSelf.value()",
                    message = "generation never decreases",
                    optionalOldSelf = true)
            Long generation) {
    }
}

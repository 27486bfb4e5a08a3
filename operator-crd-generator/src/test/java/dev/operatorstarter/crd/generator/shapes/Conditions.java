package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.ListMapKeys;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;

/**
 * Kubernetes' status conditions (fabric8's {@code Condition}), with the bounds Kubernetes declares
 * on {@code metav1.Condition}; in the spec, so that the API server validates them on create.
 */
@Group(Shapes.GROUP)
@Version("v1")
public class Conditions extends CustomResource<Conditions.Spec, Void> implements Namespaced {

    public record Spec(@ListMapKeys("type") List<Condition> conditions) {
    }
}

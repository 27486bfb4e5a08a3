package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.Map;

/**
 * Kubernetes' own types inside a spec: int-or-string, quantities, a pod-template-like metadata,
 * a whole object (a ConfigMap) and a fabric8 model class (a Container) described like any bean.
 */
@Group(Shapes.GROUP)
@Version("v1")
public class KubernetesTypes extends CustomResource<KubernetesTypes.Spec, Void> implements Namespaced {

    public record Spec(IntOrString port, Quantity memory, Map<String, Quantity> limits, Template template,
            ConfigMap configMap, Container sidecar) {
    }

    public record Template(ObjectMeta metadata, Map<String, String> data) {
    }
}

package ${package};

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * The custom resource this operator reconciles. Its CustomResourceDefinition is
 * {@code chart/crds/${kind}.yaml}: keep the two in step.
 */
@Group(${kind}.GROUP)
@Version(${kind}.VERSION)
public class ${kind} extends CustomResource<${kind}Spec, ${kind}Status> implements Namespaced {

    public static final String GROUP = "${apiGroup}";
    public static final String VERSION = "v1alpha1";

    /** A ${kind} named {@code name} whose ConfigMap should hold {@code message}. */
    public static ${kind} of(String name, String message) {
        ${kind} resource = new ${kind}();
        resource.getMetadata().setName(name);
        resource.setSpec(new ${kind}Spec(message));
        return resource;
    }
}

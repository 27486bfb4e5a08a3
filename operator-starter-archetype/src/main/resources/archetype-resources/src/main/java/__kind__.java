package ${package};

import com.fasterxml.jackson.annotation.JsonClassDescription;
import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.PrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;
import jakarta.validation.constraints.NotNull;

/**
 * The custom resource this operator reconciles. Its CustomResourceDefinition is generated from
 * this class and its spec and status when the project builds, into
 * {@code chart/crds/${kind.toLowerCase()}s.${apiGroup}.yaml} (operator-crd-maven-plugin, turned on by the parent pom).
 */
@Group(${kind}.GROUP)
@Version(${kind}.VERSION)
@Plural("${kind.toLowerCase()}s")
@JsonClassDescription("A message the operator keeps in a ConfigMap.")
@PrinterColumn(name = "Message", jsonPath = ".spec.message")
@PrinterColumn(name = "ConfigMap", jsonPath = ".status.configMap")
public class ${kind} extends CustomResource<@NotNull ${kind}Spec, ${kind}Status> implements Namespaced {

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

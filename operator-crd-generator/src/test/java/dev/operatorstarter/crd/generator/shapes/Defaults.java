package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.Default;
import dev.operatorstarter.crd.NullAllowed;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;

/** Defaults of every kind of value, and a nullable property. */
@Group(Shapes.GROUP)
@Version("v1")
public class Defaults extends CustomResource<Defaults.Spec, Void> implements Namespaced {

    public record Spec(
            @Default("3") int replicas,
            @Default("0.5") double ratio,
            @Default("true") boolean enabled,
            @Default("nginx:1.29") String image,
            @Default("true") String quoted,
            @Default("RUNNING") Enums.Phase phase,
            @Default("[\"a\", \"b\"]") List<String> tags,
            @Default("{\"team\": \"web\"}") Map<String, String> labels,
            @Default("{}") Limits limits,
            @Default("8080") IntOrString port,
            @Default("50%") IntOrString maxUnavailable,
            @NullAllowed String nickname) {
    }

    public record Limits(@Default("100") int cpu, @Default("64Mi") String memory) {
    }
}

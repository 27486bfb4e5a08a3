package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/** Maps with string and enum keys, of scalars, objects, lists and maps. */
@Group(Shapes.GROUP)
@Version("v1")
public class Maps extends CustomResource<Maps.Spec, Void> implements Namespaced {

    public record Spec(Map<String, String> labels, SortedMap<String, Integer> weights,
            Map<Enums.Phase, Long> timeouts, Map<String, Endpoint> endpoints, Map<String, List<String>> groups,
            Map<String, Map<String, Boolean>> nested) {
    }

    public record Endpoint(String host, int port) {
    }
}

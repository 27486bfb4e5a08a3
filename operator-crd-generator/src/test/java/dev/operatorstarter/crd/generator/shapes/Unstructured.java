package dev.operatorstarter.crd.generator.shapes;

import dev.operatorstarter.client.CustomResource;
import dev.operatorstarter.crd.EmbeddedResource;
import dev.operatorstarter.crd.PreserveUnknownFields;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Values the server keeps as written: JSON trees, {@code Object}, free-form maps, embedded objects. */
@Group(Shapes.GROUP)
@Version("v1")
public class Unstructured extends CustomResource<Unstructured.Spec, Void> implements Namespaced {

    public record Spec(JsonNode anything, Object object, ObjectNode tree, ArrayNode array,
            Map<String, Object> values, List<Object> mixed, Extensible extensible,
            @PreserveUnknownFields Settings settings, @EmbeddedResource GenericKubernetesResource manifest,
            @EmbeddedResource Map<String, Object> rawManifest) {
    }

    /** Known properties validated, unknown ones kept, wherever the class is used. */
    @PreserveUnknownFields
    public record Extensible(String name) {
    }

    public record Settings(int level) {
    }
}

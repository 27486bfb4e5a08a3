package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Compacted cached objects are Java-serializable, as fabric8's models are: their read-only maps
 * and lists are written as plain, writable {@code LinkedHashMap}s and {@code ArrayList}s.
 */
class CompactedSerializationTest {

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T object) throws IOException, ClassNotFoundException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void aCompactedPodSurvivesARoundTripThroughObjectOutputStream() throws Exception {
        Map<String, String> manyAnnotations = new LinkedHashMap<>();
        for (int i = 0; i < CompactMap.MAX_SIZE + 4; i++) {
            manyAnnotations.put("note-" + i, "value-" + i); // more than a compact map holds
        }
        Pod decoded = new PodBuilder().withNewMetadata().withNamespace("ns").withName("p").addToLabels("app", "web")
                .withAnnotations(manyAnnotations).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withArgs("--a", "--b").addNewPort()
                .withContainerPort(8080).endPort().endContainer().endSpec().build();
        Pod cached = Transforms.<Pod>defaults().apply(decoded);
        Pod copy = roundTrip(cached);

        assertThat(copy).isEqualTo(cached).isEqualTo(decoded);
        assertThat(copy.getMetadata().getLabels()).isInstanceOf(LinkedHashMap.class);
        assertThat(copy.getMetadata().getAnnotations()).isInstanceOf(LinkedHashMap.class).hasSize(manyAnnotations.size());
        assertThat(copy.getSpec().getContainers().get(0).getArgs()).isInstanceOf(ArrayList.class);
        copy.getMetadata().getLabels().put("tier", "db"); // a plain, writable map once read back
        copy.getSpec().getVolumes().add(null); // the shared empty list too
        assertThat(cached.getMetadata().getLabels()).doesNotContainKey("tier");
    }

    @Test
    void aCompactedGenericResourceSurvivesARoundTripThroughObjectOutputStream() throws Exception {
        String json = """
                {"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g", "namespace": "ns"},
                 "spec": {"size": 3, "items": [{"name": "a", "tags": ["x", "y"]}], "empty": {}, "none": []}}
                """;
        GenericKubernetesResource cached = Transforms.<GenericKubernetesResource>defaults()
                .apply(Json.MAPPER.readValue(json, GenericKubernetesResource.class));
        GenericKubernetesResource copy = roundTrip(cached);

        assertThat(copy).isEqualTo(cached);
        assertThat(Json.MAPPER.writeValueAsString(copy)).isEqualTo(Json.MAPPER.writeValueAsString(cached));
        List<Object> tags = copy.get("spec", "items", 0, "tags");
        tags.add("z");
        assertThat(cached.<List<Object>>get("spec", "items", 0, "tags")).containsExactly("x", "y");
    }
}

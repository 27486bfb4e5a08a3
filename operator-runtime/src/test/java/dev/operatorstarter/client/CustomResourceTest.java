package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A class that extends {@link CustomResource} is named by its annotations and decodes its typed spec and status. */
class CustomResourceTest {

    @Group("runtime.operatorstarter.dev")
    @Version("v1beta1")
    public static class Sprinkler extends CustomResource<Sprinkler.Spec, Sprinkler.Status> implements Namespaced {

        public record Spec(int litres, List<String> zones) {
        }

        public record Status(String phase) {
        }
    }

    @Test
    void apiVersionAndKindComeFromTheAnnotationsAndTheClassName() {
        Sprinkler sprinkler = new Sprinkler();

        assertThat(sprinkler.getApiVersion()).isEqualTo("runtime.operatorstarter.dev/v1beta1");
        assertThat(sprinkler.getKind()).isEqualTo("Sprinkler");
        assertThat(sprinkler.getSpec()).isNull();
        assertThat(ResourceType.of(Sprinkler.class).groupVersionResource())
                .isEqualTo(new GroupVersionResource("runtime.operatorstarter.dev", "v1beta1", "sprinklers"));
    }

    @Test
    void theTypedSpecAndStatusSurviveARoundTripThroughTheClientsMapper() {
        Sprinkler sprinkler = new Sprinkler();
        sprinkler.getMetadata().setName("garden");
        sprinkler.setSpec(new Sprinkler.Spec(12, List.of("lawn", "roses")));
        sprinkler.setStatus(new Sprinkler.Status("Watering"));

        String json = Json.MAPPER.writeValueAsString(sprinkler);
        Sprinkler decoded = Json.MAPPER.readValue(json, Sprinkler.class);

        assertThat(json).contains("\"apiVersion\":\"runtime.operatorstarter.dev/v1beta1\"", "\"kind\":\"Sprinkler\"");
        assertThat(decoded).isInstanceOf(Sprinkler.class);
        assertThat(decoded.getMetadata().getName()).isEqualTo("garden");
        assertThat(decoded.getSpec()).isEqualTo(new Sprinkler.Spec(12, List.of("lawn", "roses")));
        assertThat(decoded.getStatus()).isEqualTo(new Sprinkler.Status("Watering"));
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The documented recipe for changing a cached object, copying it with its model's builder and then
 * changing the copy, works at every depth for every kind of cached object, generic resources
 * included, and leaves the cached object as it was.
 */
class CachedObjectCopiesTest {

    private static final String GADGET = """
            {"apiVersion": "example.com/v1", "kind": "Gadget",
             "metadata": {"name": "g", "namespace": "ns", "labels": {"app": "web"}},
             "spec": {"size": 3, "template": {"spec": {"containers": [
                 {"name": "main", "args": ["--a"], "env": {"X": "1"}}]}}},
             "status": {"conditions": [{"type": "Ready", "status": "True"}]}}
            """;

    /** A generic resource as an informer caches it: decoded, then through the default transform. */
    private static GenericKubernetesResource cachedGadget() {
        GenericKubernetesResource decoded = Json.MAPPER.readValue(GADGET, GenericKubernetesResource.class);
        return Transforms.<GenericKubernetesResource>defaults().apply(decoded);
    }

    /** A Deployment as an informer caches it, with a field the model does not know nested in its pod spec. */
    private static Deployment cachedDeployment() {
        Deployment decoded = new DeploymentBuilder().withNewMetadata().withNamespace("ns").withName("d")
                .addToLabels("app", "web").endMetadata()
                .withNewSpec().withReplicas(2).withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withArgs("--a").addNewEnv().withName("X")
                .withValue("1").endEnv().endContainer().endSpec().endTemplate().endSpec().build();
        Map<String, Object> deep = new LinkedHashMap<>(Map.of("deep", "1"));
        Map<String, Object> nested = new LinkedHashMap<>(Map.of("nested", deep));
        decoded.getSpec().getTemplate().getSpec().setAdditionalProperty("extra", nested);
        return Transforms.<Deployment>defaults().apply(decoded);
    }

    static Stream<Arguments> genericCopies() {
        return Stream.of(
                Arguments.of("new GenericKubernetesResourceBuilder(cached)",
                        (UnaryOperator<GenericKubernetesResource>) c -> new GenericKubernetesResourceBuilder(c).build()),
                Arguments.of("cached.toBuilder()",
                        (UnaryOperator<GenericKubernetesResource>) c -> c.toBuilder().build()),
                Arguments.of("cached.edit()", (UnaryOperator<GenericKubernetesResource>) c -> c.edit().build()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object value) {
        return (List<Object>) value;
    }

    @Test
    void aCachedGenericResourceIsReadOnlyAtEveryDepth() {
        GenericKubernetesResource cached = cachedGadget();
        Map<String, Object> spec = map(cached.getAdditionalProperties().get("spec"));
        assertThatThrownBy(() -> spec.put("size", 4)).isInstanceOf(UnsupportedOperationException.class);
        Map<String, Object> podSpec = map(map(spec.get("template")).get("spec"));
        assertThatThrownBy(() -> list(podSpec.get("containers")).add(Map.of()))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("genericCopies")
    void aBuilderCopyOfACachedGenericResourceIsWritableAtEveryDepth(String how,
            UnaryOperator<GenericKubernetesResource> copier) {
        GenericKubernetesResource cached = cachedGadget();
        String before = Json.MAPPER.writeValueAsString(cached);
        GenericKubernetesResource copy = copier.apply(cached);

        Map<String, Object> spec = map(copy.getAdditionalProperties().get("spec"));
        spec.put("size", 4);
        Map<String, Object> podSpec = map(map(spec.get("template")).get("spec"));
        podSpec.put("hostNetwork", true);
        List<Object> containers = list(podSpec.get("containers"));
        Map<String, Object> main = map(containers.get(0));
        list(main.get("args")).add("--b");
        map(main.get("env")).put("Y", "2");
        containers.add(Map.of("name", "sidecar"));
        map(list(map(copy.getAdditionalProperties().get("status")).get("conditions")).get(0)).put("status", "False");
        copy.getMetadata().getLabels().put("tier", "db");

        assertThat(copy.<Object>get("spec", "template", "spec", "containers", 0, "args")).isEqualTo(List.of("--a", "--b"));
        assertThat(copy.<Object>get("spec", "template", "spec", "containers", 0, "env"))
                .isEqualTo(Map.of("X", "1", "Y", "2"));
        assertThat(copy.<Object>get("status", "conditions", 0, "status")).isEqualTo("False");
        assertThat(Json.MAPPER.writeValueAsString(cached)).as("the cached object is unchanged").isEqualTo(before);
        assertThat(Json.MAPPER.writeValueAsString(copy)).isNotEqualTo(before);
        assertThat(cached.<Object>get("spec", "template", "spec", "containers", 0, "args")).isEqualTo(List.of("--a"));
    }

    static Stream<Arguments> deploymentCopies() {
        return Stream.of(
                Arguments.of("new DeploymentBuilder(cached)",
                        (UnaryOperator<Deployment>) c -> new DeploymentBuilder(c).build()),
                Arguments.of("cached.toBuilder()", (UnaryOperator<Deployment>) c -> c.toBuilder().build()),
                Arguments.of("cached.edit()", (UnaryOperator<Deployment>) c -> c.edit().build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deploymentCopies")
    void aBuilderCopyOfACachedTypedResourceIsWritableAtEveryDepth(String how, UnaryOperator<Deployment> copier) {
        Deployment cached = cachedDeployment();
        Deployment before = new DeploymentBuilder(cachedDeployment()).build();
        Deployment copy = copier.apply(cached);

        copy.getSpec().getTemplate().getMetadata().getLabels().put("tier", "db");
        var podSpec = copy.getSpec().getTemplate().getSpec();
        podSpec.getContainers().get(0).getArgs().add("--b");
        podSpec.getContainers().get(0).getEnv().add(new EnvVar("Y", "2", null));
        podSpec.getContainers().add(new ContainerBuilder().withName("sidecar").build());
        map(map(podSpec.getAdditionalProperties().get("extra")).get("nested")).put("deeper", "2");

        assertThat(copy.getSpec().getTemplate().getSpec().getContainers()).hasSize(2);
        assertThat(map(map(copy.getSpec().getTemplate().getSpec().getAdditionalProperties().get("extra")).get("nested")))
                .containsEntry("deeper", "2");
        assertThat(cached).as("the cached object is unchanged").isEqualTo(before);
        assertThat(cached.getSpec().getTemplate().getSpec().getContainers().get(0).getArgs()).containsExactly("--a");
    }

    @Test
    void aBuilderCopyOfACachedConfigMapIsWritable() {
        ConfigMap decoded = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("c")
                .addToLabels("app", "web").addToAnnotations("a", "1").endMetadata().addToData("k", "v").build();
        ConfigMap cached = Transforms.<ConfigMap>defaults().apply(decoded);
        ConfigMap copy = new ConfigMapBuilder(cached).build();

        copy.getData().put("k2", "v2");
        copy.getMetadata().getLabels().put("tier", "db");
        copy.getMetadata().getAnnotations().remove("a");

        assertThat(cached.getData()).containsExactly(Map.entry("k", "v"));
        assertThat(cached.getMetadata().getLabels()).containsExactly(Map.entry("app", "web"));
        assertThat(cached.getMetadata().getAnnotations()).containsExactly(Map.entry("a", "1"));
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransformsTest {

    private static Pod decode(int i) {
        return Json.MAPPER.readValue(CacheMemoryMeasurement.podJson(i), Pod.class);
    }

    /** One transform for the whole test, as one informer (or one factory) has. */
    private final java.util.function.UnaryOperator<HasMetadata> transform = Transforms.defaults();

    private Pod transformed(int i) {
        return (Pod) transform.apply(decode(i));
    }

    @Test
    void theDefaultDropsManagedFieldsAndKeepsEverythingElse() {
        Pod original = decode(1);
        Pod cached = transformed(1);
        assertThat(original.getMetadata().getManagedFields()).hasSize(2);
        assertThat(cached.getMetadata().getManagedFields()).isNullOrEmpty();
        original.getMetadata().setManagedFields(null);
        assertThat(cached).isEqualTo(original);
        assertThat(Json.MAPPER.writeValueAsString(cached)).isEqualTo(Json.MAPPER.writeValueAsString(original));
    }

    @Test
    void repeatedStringsAnywhereInTheObjectAreOneInstance() {
        Pod a = transformed(10);
        Pod b = transformed(20);
        assertThat(a.getMetadata().getNamespace()).isSameAs(b.getMetadata().getNamespace());
        assertThat(a.getMetadata().getLabels().get("pod-template-hash"))
                .isSameAs(b.getMetadata().getLabels().get("pod-template-hash"));
        assertThat(a.getMetadata().getOwnerReferences().get(0).getKind())
                .isSameAs(b.getMetadata().getOwnerReferences().get(0).getKind());
        // beyond the metadata: spec and status strings, map keys and boxed numbers
        Container first = a.getSpec().getContainers().get(0);
        Container second = b.getSpec().getContainers().get(0);
        assertThat(first.getImage()).isSameAs(second.getImage());
        assertThat(first.getPorts().get(0).getProtocol()).isSameAs(second.getPorts().get(0).getProtocol());
        assertThat(first.getPorts().get(0).getContainerPort()).isSameAs(second.getPorts().get(0).getContainerPort());
        assertThat(first.getResources().getRequests().keySet()).first().isSameAs(
                second.getResources().getRequests().keySet().iterator().next());
        assertThat(a.getStatus().getConditions().get(1).getType()).isSameAs(b.getStatus().getConditions().get(1).getType());
        assertThat(a.getSpec().getTolerations().get(0).getTolerationSeconds())
                .isSameAs(b.getSpec().getTolerations().get(0).getTolerationSeconds());
    }

    @Test
    void uniqueMetadataValuesAreNotPooled() {
        Pod a = transformed(10);
        Pod again = transformed(10); // the same object decoded twice: equal values, pooled ones would be one instance
        assertThat(a.getMetadata().getUid()).isEqualTo(again.getMetadata().getUid())
                .isNotSameAs(again.getMetadata().getUid());
        assertThat(a.getMetadata().getName()).isNotSameAs(again.getMetadata().getName());
        assertThat(a.getMetadata().getResourceVersion()).isNotSameAs(again.getMetadata().getResourceVersion());
        assertThat(a.getMetadata().getGenerateName()).isSameAs(again.getMetadata().getGenerateName());
    }

    @Test
    void repeatedLabelMapsAreOneInstanceInTheirOrder() {
        Pod a = transformed(10);
        Pod b = transformed(20);
        assertThat(a.getMetadata().getLabels()).isSameAs(b.getMetadata().getLabels())
                .containsExactly(entry("app.kubernetes.io/name", "web"), entry("pod-template-hash", "7d4b9c8f6d"));
        Pod reordered = decode(30);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("pod-template-hash", "7d4b9c8f6d");
        labels.put("app.kubernetes.io/name", "web");
        reordered.getMetadata().setLabels(labels);
        Pod cached = (Pod) transform.apply(reordered);
        assertThat(cached.getMetadata().getLabels()).isEqualTo(a.getMetadata().getLabels()) // equal as maps
                .isNotSameAs(a.getMetadata().getLabels()) // but not shared: the order a reader sees is kept
                .containsExactly(entry("pod-template-hash", "7d4b9c8f6d"), entry("app.kubernetes.io/name", "web"));
    }

    @Test
    void listsAndMapsAreReadOnlyButABuilderCopyIsWritable() {
        Pod a = transformed(1);
        Pod b = transformed(2);
        assertThat(a.getSpec().getContainers().get(0).getAdditionalProperties())
                .isSameAs(b.getStatus().getAdditionalProperties());
        assertThat(b.getStatus().getAdditionalProperties()).isEmpty();
        assertThat(a.getSpec().getInitContainers()).isEmpty();
        assertThat(a.getSpec().getInitContainers()).isSameAs(b.getSpec().getImagePullSecrets());
        assertThatThrownBy(() -> a.getSpec().getAdditionalProperties().put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> a.getMetadata().getLabels().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> a.getSpec().getContainers().add(new Container()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> a.getSpec().getInitContainers().add(new Container()))
                .isInstanceOf(UnsupportedOperationException.class);

        Pod copy = new PodBuilder(a).build();
        copy.getSpec().getAdditionalProperties().put("extra", "yes");
        copy.getStatus().getAdditionalProperties().put("x", 1);
        copy.getMetadata().getLabels().put("copied", "true");
        copy.getSpec().getContainers().add(new Container());
        copy.getSpec().getInitContainers().add(new Container());
        assertThat(copy.getSpec().getAdditionalProperties()).containsEntry("extra", "yes");
        assertThat(copy.getMetadata().getLabels()).containsEntry("copied", "true");
        assertThat(copy.getSpec().getContainers()).hasSize(2);
        assertThat(a.getSpec().getAdditionalProperties()).isEmpty();
        assertThat(a.getMetadata().getLabels()).doesNotContainKey("copied");
        assertThat(a.getSpec().getContainers()).hasSize(1);
        assertThat(b.getSpec().getInitContainers()).isEmpty();
    }

    @Test
    void aCustomResourceKeepsItsOwnClassesAndHasItsMetadataCompacted() {
        Widget widget = Json.MAPPER.readValue("""
                {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"n",
                 "labels":{"app":"shop"},"finalizers":[]},"spec":{"tags":["a","b"]}}
                """, Widget.class);
        java.util.List<String> tags = widget.getSpec().tags();
        Widget cached = (Widget) Transforms.<HasMetadata>defaults().apply(widget);
        assertThat(cached.getSpec().tags()).isSameAs(tags); // user classes are not walked
        assertThatThrownBy(() -> cached.getMetadata().getLabels().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(cached.getMetadata().getFinalizers()).isEmpty();
    }

    @io.fabric8.kubernetes.model.annotation.Group("example.com")
    @io.fabric8.kubernetes.model.annotation.Version("v1")
    public static final class Widget extends dev.operatorstarter.client.CustomResource<WidgetSpec, Void>
            implements io.fabric8.kubernetes.api.model.Namespaced {
    }

    public record WidgetSpec(java.util.List<String> tags) {
    }

    @Test
    void genericResourcesHaveTheirContentCompactedAndReadTheSame() {
        String json = """
                {"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"n"},
                 "spec":{"size":3,"tags":["a","b"],"empty":{},"nested":{"list":[{"k":"v"}],"nothing":null}}}
                """;
        GenericKubernetesResource original = Json.MAPPER.readValue(json, GenericKubernetesResource.class);
        GenericKubernetesResource cached = (GenericKubernetesResource) Transforms.<HasMetadata>compact()
                .apply(Json.MAPPER.readValue(json, GenericKubernetesResource.class));
        assertThat(cached).isEqualTo(original);
        assertThat(Json.MAPPER.writeValueAsString(cached)).isEqualTo(Json.MAPPER.writeValueAsString(original));
        assertThat((Object) cached.get("spec", "nested", "list")).isEqualTo(java.util.List.of(Map.of("k", "v")));
        assertThatThrownBy(() -> cached.getAdditionalProperties().put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void unknownFieldsSurviveInTheirAdditionalProperties() {
        Pod pod = Json.MAPPER.readValue("""
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"n"},
                 "spec":{"futureField":{"enabled":true},"containers":[]}}
                """, Pod.class);
        Pod cached = (Pod) Transforms.<HasMetadata>defaults().apply(pod);
        assertThat(cached.getSpec().getAdditionalProperties()).containsKey("futureField");
    }
}

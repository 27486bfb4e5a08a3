package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
    void repeatedMetadataStringsAreOneInstance() {
        Pod a = transformed(10);
        Pod b = transformed(20);
        assertThat(a.getMetadata().getNamespace()).isSameAs(b.getMetadata().getNamespace());
        String labelKey = a.getMetadata().getLabels().keySet().iterator().next();
        assertThat(b.getMetadata().getLabels().keySet()).anySatisfy(key -> assertThat(key).isSameAs(labelKey));
        assertThat(a.getMetadata().getLabels().get("pod-template-hash"))
                .isSameAs(b.getMetadata().getLabels().get("pod-template-hash"));
        assertThat(a.getMetadata().getOwnerReferences().get(0).getKind())
                .isSameAs(b.getMetadata().getOwnerReferences().get(0).getKind());
    }

    @Test
    void emptyAdditionalPropertiesMapsAreSharedAndReadOnlyButABuilderCopyIsWritable() {
        Pod a = transformed(1);
        Pod b = transformed(2);
        assertThat(a.getSpec().getContainers().get(0).getAdditionalProperties())
                .isSameAs(b.getStatus().getAdditionalProperties());
        assertThat(b.getStatus().getAdditionalProperties()).isEmpty();
        assertThatThrownBy(() -> a.getSpec().getAdditionalProperties().put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);

        Pod copy = new PodBuilder(a).build();
        copy.getSpec().getAdditionalProperties().put("extra", "yes");
        copy.getStatus().getAdditionalProperties().put("x", 1);
        assertThat(copy.getSpec().getAdditionalProperties()).containsEntry("extra", "yes");
        assertThat(a.getSpec().getAdditionalProperties()).isEmpty();
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

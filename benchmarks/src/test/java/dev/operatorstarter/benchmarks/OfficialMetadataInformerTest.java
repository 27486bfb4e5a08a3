package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.OfficialMetadataInformer.PartialObject;
import dev.operatorstarter.benchmarks.OfficialMetadataInformer.PartialObjectList;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;

class OfficialMetadataInformerTest {

    @Test
    void theOfficialClientsGsonReadsAPartialObjectMetadataListIntoTheModel() {
        PartialObjectList list = JSON.deserialize("""
                {"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadataList", "metadata": {"resourceVersion": "42"},
                 "items": [{"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata",
                            "metadata": {"name": "config-0", "namespace": "team", "labels": {"app": "bench"}}}]}
                """, PartialObjectList.class);

        assertThat(list.getApiVersion()).isEqualTo("meta.k8s.io/v1");
        assertThat(list.getKind()).isEqualTo("PartialObjectMetadataList");
        assertThat(list.getMetadata().getResourceVersion()).isEqualTo("42");
        assertThat(list.getItems()).singleElement().satisfies(item -> {
            assertThat(item.getApiVersion()).isEqualTo("meta.k8s.io/v1");
            assertThat(item.getKind()).isEqualTo("PartialObjectMetadata");
            assertThat(item.getMetadata().getName()).isEqualTo("config-0");
            assertThat(item.getMetadata().getLabels()).containsEntry("app", "bench");
        });
    }

    @Test
    void anEmptyListHasNoItemsRatherThanNull() {
        PartialObjectList list = JSON.deserialize("{\"kind\": \"PartialObjectMetadataList\"}", PartialObjectList.class);

        assertThat(list.getItems()).isEmpty();
    }

    @Test
    void aCachedObjectIsAsLargeAsAFlatThreeFieldClass() {
        // the shared base class must not change the bytes the benchmark measures per object
        assertThat(ClassLayout.parseClass(PartialObject.class).instanceSize())
                .isEqualTo(ClassLayout.parseClass(Flat.class).instanceSize());
    }

    @SuppressWarnings("unused")
    private static final class Flat {
        private String apiVersion;
        private String kind;
        private V1ObjectMeta metadata;
    }
}

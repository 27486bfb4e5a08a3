package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.cache.Transforms;
import dev.operatorstarter.client.KubernetesJson;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CacheHistogramTest {

    private static List<byte[]> configMaps(int count) {
        return IntStream.range(0, count).mapToObj(i -> new ConfigMapBuilder().withNewMetadata().withName("settings-" + i)
                .withNamespace("team").withUid("uid-" + i).addToLabels("app", "web").endMetadata()
                .addToData("payload", "value-" + i).build()).map(KubernetesJson.mapper()::writeValueAsBytes).toList();
    }

    @Test
    void theHistogramCountsWhatOneMoreObjectHoldsAndTheTransformShowsInIt() {
        List<CacheHistogram.Row> none = CacheHistogram.marginal(configMaps(9), ConfigMap.class, Transforms::none);
        List<CacheHistogram.Row> compacted = CacheHistogram.marginal(configMaps(9), ConfigMap.class, Transforms::defaults);
        assertThat(none).extracting(CacheHistogram.Row::type).contains("ConfigMap", "ObjectMeta", "String",
                "LinkedHashMap");
        assertThat(none).filteredOn(row -> row.type().equals("ConfigMap")).singleElement()
                .extracting(CacheHistogram.Row::count).isEqualTo(1L);
        assertThat(compacted).extracting(CacheHistogram.Row::type).doesNotContain("LinkedHashMap", "ArrayList");
        assertThat(total(compacted)).isPositive().isLessThan(total(none));
        assertThat(none).isSortedAccordingTo((a, b) -> Long.compare(b.bytes(), a.bytes()));
    }

    @Test
    void itNeedsObjectsToCompareWith() {
        assertThatThrownBy(() -> CacheHistogram.marginal(configMaps(3), ConfigMap.class, Transforms::none))
                .hasMessageContaining("need at least 9 objects, got 3");
    }

    @Test
    void eachKindIsSampledFromItsSmallestWorkloadThatHoldsEnoughObjects() {
        ScaleCurve curve = ScaleCurve.of(List.of(8, 9, 500), List.of(5), 1, 1);

        assertThat(CacheHistogram.sampled(curve, Workload.Kind.CONFIGMAPS)).hasValue(curve.sizes(Workload.Kind.CONFIGMAPS)
                .get(1));
        assertThat(CacheHistogram.sampled(curve, Workload.Kind.PODS)).isEmpty();
    }

    @Test
    void theTableNamesTheLargestClassesAndSumsTheRest() {
        List<CacheHistogram.Row> rows = IntStream.range(0, 14)
                .mapToObj(i -> new CacheHistogram.Row("Type" + i, 1, 1000 - i)).toList();
        String table = CacheHistogram.table("Pod", rows);
        assertThat(table).startsWith("| Pod | objects | bytes |\n|---|---|---|\n| `Type0` | 1 | 1,000 |\n")
                .contains("| `Type11` | 1 | 989 |").doesNotContain("Type12")
                .contains("| 2 other classes | 2 | 1,975 |").endsWith("| **total** | 14 | **13,909** |\n");
    }

    @Test
    void namesLoseTheirWellKnownPackages() {
        assertThat(CacheHistogram.shortName(ConfigMap.class)).isEqualTo("ConfigMap");
        assertThat(CacheHistogram.shortName(String.class)).isEqualTo("String");
        assertThat(CacheHistogram.shortName(byte[].class)).isEqualTo("byte[]");
        assertThat(CacheHistogram.shortName(Object[].class)).isEqualTo("Object[]");
        assertThat(CacheHistogram.shortName(java.util.HashMap.class)).isEqualTo("HashMap");
        assertThat(CacheHistogram.shortName(CacheHistogramTest.class))
                .isEqualTo("dev.operatorstarter.benchmarks.CacheHistogramTest");
    }

    private static long total(List<CacheHistogram.Row> rows) {
        return rows.stream().mapToLong(CacheHistogram.Row::bytes).sum();
    }
}

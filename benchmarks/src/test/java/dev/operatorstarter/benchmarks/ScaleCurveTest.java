package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleCurveTest {

    private static final Workload.Kind CONFIGMAPS = Workload.Kind.CONFIGMAPS;
    private static final Workload.Kind PODS = Workload.Kind.PODS;

    @Test
    void theFullCurveMeasuresTheLargestSizeOfEachKindFewerTimes() {
        assertThat(ScaleCurve.FULL.workloads()).containsExactly(
                new Workload(CONFIGMAPS, 1_000, 5), new Workload(CONFIGMAPS, 10_000, 5), new Workload(CONFIGMAPS, 50_000, 3),
                new Workload(PODS, 2_000, 5), new Workload(PODS, 10_000, 3));
        assertThat(ScaleCurve.FULL.baselineRuns()).isEqualTo(3);
    }

    @Test
    void sizesAreSortedFromSmallToLarge() {
        ScaleCurve curve = ScaleCurve.of(List.of(50, 5, 500), List.of(), 2, 1);

        assertThat(curve.sizes(CONFIGMAPS)).extracting(Workload::objects).containsExactly(5, 50, 500);
        assertThat(curve.sizes(PODS)).isEmpty();
        assertThat(curve.kinds()).containsExactly(CONFIGMAPS);
    }

    @Test
    void oursAndControllerRuntimeWithoutATransformRunOnlyAtTheLowerMedianSizeOfEachKind() {
        ScaleCurve curve = ScaleCurve.FULL;

        assertThat(curve.workloads()).filteredOn(workload -> curve.subjects(workload, Projection.FULL_OBJECTS)
                .contains(Subject.OURS_NO_TRANSFORM))
                .containsExactly(new Workload(CONFIGMAPS, 10_000, 5), new Workload(PODS, 2_000, 5));
        assertThat(curve.workloads()).filteredOn(workload -> curve.subjects(workload, Projection.METADATA_ONLY)
                .contains(Subject.CONTROLLER_RUNTIME_NO_TRANSFORM))
                .containsExactly(new Workload(CONFIGMAPS, 10_000, 5), new Workload(PODS, 2_000, 5));
        assertThat(curve.subjects(new Workload(CONFIGMAPS, 1_000, 5), Projection.FULL_OBJECTS))
                .containsExactly(Subject.OURS, Subject.FABRIC8, Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME);
    }

    @Test
    void metadataOnlyMeasuresOursTheOfficialClientAndControllerRuntimeNeverFabric8() {
        for (Workload workload : ScaleCurve.FULL.workloads()) {
            assertThat(ScaleCurve.FULL.subjects(workload, Projection.METADATA_ONLY)).startsWith(Subject.OURS,
                    Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME).doesNotContain(Subject.FABRIC8);
        }
        assertThat(ScaleCurve.FULL.subjects(PODS, Projection.FULL_OBJECTS)).containsExactly(Subject.values());
    }

    @Test
    void forksCountEveryRunAndEveryBaseline() {
        ScaleCurve curve = ScaleCurve.of(List.of(10, 20), List.of(), 2, 1);
        // 10: 2 runs x (6 full + 4 metadata); 20: 1 run x (4 + 3); baseline: 1 run x (6 + 4)
        assertThat(curve.forks()).isEqualTo(20 + 7 + 10);
    }

    @Test
    void eachWorkloadHasANamespaceOfItsOwnAndTheConfigMapsListTheRootCertificateToo() {
        Workload configMaps = new Workload(CONFIGMAPS, 1_000, 1);
        Workload pods = new Workload(PODS, 1_000, 1);

        assertThat(configMaps.namespace()).isEqualTo("bench-configmaps-1000").isNotEqualTo(pods.namespace());
        assertThat(configMaps.listed()).isEqualTo(1_001);
        assertThat(pods.listed()).isEqualTo(1_000);
    }

    @Test
    void theCacheAloneHoldsTheObjectsBeyondTheBaselinesOneOfTheirKind() {
        // the baseline namespace lists its kube-root-ca.crt and one Pod
        assertThat(new Workload(CONFIGMAPS, 1_000, 1).beyondBaseline()).isEqualTo(1_000);
        assertThat(new Workload(PODS, 1_000, 1).beyondBaseline()).isEqualTo(999);
    }

    @Test
    void invalidCurvesAreRefusedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> ScaleCurve.of(List.of(), List.of(), 1, 1))
                .withMessageContaining("workloads");
        assertThatIllegalArgumentException().isThrownBy(() -> ScaleCurve.of(List.of(10, 20), List.of(), 0, 1))
                .withMessageContaining("runs");
        assertThatIllegalArgumentException().isThrownBy(() -> new ScaleCurve(List.of(new Workload(PODS, 1, 1)), 0))
                .withMessageContaining("baselineRuns");
        assertThatIllegalArgumentException().isThrownBy(() -> new Workload(PODS, 0, 1)).withMessageContaining("objects");
        assertThatIllegalArgumentException().isThrownBy(() -> ScaleCurve.of(List.of(10, 10), List.of(), 1, 1))
                .withMessageContaining("each size once");
    }
}

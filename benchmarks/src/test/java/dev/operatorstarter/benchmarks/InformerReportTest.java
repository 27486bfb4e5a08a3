package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.operatorstarter.benchmarks.InformerReport.Baseline;
import dev.operatorstarter.benchmarks.InformerReport.Case;
import dev.operatorstarter.benchmarks.InformerReport.Sample;
import java.util.List;
import org.junit.jupiter.api.Test;

class InformerReportTest {

    private static final Workload.Kind CONFIGMAPS = Workload.Kind.CONFIGMAPS;
    private static final Workload.Kind PODS = Workload.Kind.PODS;
    private static final Projection FULL = Projection.FULL_OBJECTS;
    private static final Projection METADATA = Projection.METADATA_ONLY;

    private final ScaleCurve curve = ScaleCurve.of(List.of(1_000, 10_000), List.of(1_001), 3, 1);
    private final Workload smallConfigMaps = curve.sizes(CONFIGMAPS).get(0);
    private final Workload largeConfigMaps = curve.sizes(CONFIGMAPS).get(1);
    private final Workload pods = curve.sizes(PODS).get(0);
    private final InformerReport report = new InformerReport(curve);

    @Test
    void theCacheAloneIsTheMedianRetainedHeapMinusTheMedianOnTheBaselineNamespace() {
        report.addBaseline(new Baseline(CONFIGMAPS, FULL, Subject.OURS), 10_000_000);
        report.addBaseline(new Baseline(CONFIGMAPS, FULL, Subject.OURS), 9_000_000);
        report.addBaseline(new Baseline(CONFIGMAPS, FULL, Subject.OURS), 50_000_000);
        Case ours = new Case(smallConfigMaps, FULL, Subject.OURS);
        report.add(ours, new Sample(3_000, 12_000_000));
        report.add(ours, new Sample(1_000, 13_000_000));
        report.add(ours, new Sample(2_000, 99_000_000));

        assertThat(report.cacheBytes(ours)).hasValue(3_000_000);
        // 1,000 ConfigMaps beyond the kube-root-ca.crt, which the baseline namespace lists too
        assertThat(report.bytesPerObject(ours)).hasValue(3_000);
        assertThat(report.syncMillis(ours)).hasValue(2_000);
    }

    @Test
    void theFullObjectRatiosCompareOursWithTheBetterOfBothPeers() {
        measure(new Case(pods, FULL, Subject.OURS), 4_000, 15_000_000);
        measure(new Case(pods, FULL, Subject.FABRIC8), 2_000, 27_000_000);
        measure(new Case(pods, FULL, Subject.OFFICIAL), 8_000, 10_000_000);

        assertThat(report.bytesRatio(pods, FULL).getAsDouble()).isCloseTo(1.5, within(1e-9));
        assertThat(report.timeRatio(pods, FULL).getAsDouble()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void controllerRuntimeIsNotAPeerOfTheJavaRatiosButHasAColumnAndGoalsOfItsOwn() {
        measure(new Case(pods, FULL, Subject.OURS), 4_000, 15_000_000);
        measure(new Case(pods, FULL, Subject.OFFICIAL), 8_000, 10_000_000);
        measure(new Case(pods, FULL, Subject.CONTROLLER_RUNTIME), 200, 7_500_000);
        measure(new Case(pods, FULL, Subject.CONTROLLER_RUNTIME_NO_TRANSFORM), 100, 1_000);

        assertThat(report.bytesRatio(pods, FULL).getAsDouble()).isCloseTo(1.5, within(1e-9));
        assertThat(report.controllerRuntimeRatio(pods, FULL, report::bytesPerObject).getAsDouble())
                .isCloseTo(2.0, within(1e-9));
        String markdown = report.markdown();
        assertThat(markdown).contains("| 1,001 Pods | 15,000 B | – | – | 10,000 B | 7,500 B | 1 B | **1.50x** | **2.00x** |");
        assertThat(markdown).contains("- Cache bytes per object, ours ÷ controller-runtime with its strip transform "
                + "(goal ≤ 1x): 1,001 Pods: **2.00x**; not met at any size.");
    }

    @Test
    void theMetadataRatiosCompareOursWithTheOfficialClientAlone() {
        measure(new Case(pods, METADATA, Subject.OURS), 1_000, 1_000_000);
        measure(new Case(pods, METADATA, Subject.OFFICIAL), 2_000, 4_000_000);
        // never measured (fabric8 has no metadata-only informer): figures here must not count
        measure(new Case(pods, METADATA, Subject.FABRIC8), 1, 1_000);

        assertThat(report.bytesRatio(pods, METADATA).getAsDouble()).isCloseTo(0.25, within(1e-9));
        assertThat(report.timeRatio(pods, METADATA).getAsDouble()).isCloseTo(0.5, within(1e-9));
    }

    @Test
    void theTablesPutEverySizeOursBesideThePeers() {
        measure(new Case(smallConfigMaps, FULL, Subject.OURS), 2_000, 2_000_000);
        measure(new Case(smallConfigMaps, FULL, Subject.FABRIC8), 2_000, 4_000_000);
        measure(new Case(smallConfigMaps, FULL, Subject.OFFICIAL), 1_000, 2_500_000);
        measure(new Case(smallConfigMaps, METADATA, Subject.OURS), 1_000, 1_000_000);

        String markdown = report.markdown();

        assertThat(markdown).contains("| objects | ours (default transform) | ours (no transform) | fabric8 8.0.0 | "
                + "official client-java 25.0.0 | controller-runtime v0.25.2 (strip managedFields) | "
                + "controller-runtime v0.25.2 (no transform) | ours ÷ the smaller peer | ours ÷ controller-runtime |");
        assertThat(markdown).contains("| 1,001 ConfigMaps | 2,000 B | – | 4,000 B | 2,500 B | – | – | **0.80x** | – |");
        assertThat(markdown).contains("| 1,001 ConfigMaps, metadata only | 1,000 B | – | none | – | – | – | – | – |");
        assertThat(markdown).contains("| 10,001 ConfigMaps | – | – | – | – | – | – | – | – |");
        assertThat(markdown).contains("| 1,001 ConfigMaps | 1,998 µs (2,000 ms) | – | 1,998 µs (2,000 ms) | "
                + "999 µs (1,000 ms) | – | – | **2.00x** | – |");
        assertThat(markdown).contains("| 1,001 ConfigMaps | official client-java 25.0.0 | 1 | 1,000 / 1,000 / 1,000 ms |");
        assertThat(markdown).contains("| ConfigMaps, metadata only | ours (default transform) | 1 |");
    }

    @Test
    void theGoalsAreReadAtEverySize() {
        measure(new Case(pods, FULL, Subject.OURS), 1_000, 5_000_000);
        measure(new Case(pods, FULL, Subject.OFFICIAL), 1_000, 10_000_000);
        measure(new Case(smallConfigMaps, FULL, Subject.OURS), 1_000, 1_500_000);
        measure(new Case(largeConfigMaps, FULL, Subject.OURS), 1_000, 25_000_000);
        measure(new Case(pods, METADATA, Subject.OURS), 1_000, 1_200_000);

        String markdown = report.markdown();

        assertThat(markdown).contains("- Full Pods, ours ÷ the official client's bytes per object (goal ≤ 0.6x): "
                + "1,001: **0.50x**; met at every size.");
        assertThat(markdown).contains("- ConfigMaps with ~1 KiB of data, ours per object (goal ≤ 2,000 B): "
                + "1,001 ConfigMaps: **1,500 B**, 10,001 ConfigMaps: **2,500 B** (2,611 B); met at 1 of 2 sizes.");
        assertThat(markdown).contains("- Metadata only, ours per object (goal ≤ 1,000 B): 1,001 Pods: **1,200 B**; "
                + "not met at any size.");
    }

    @Test
    void theMarginalCostPerObjectIsTheSlopeBetweenSizesWithoutTheBaseline() {
        Case small = new Case(smallConfigMaps, FULL, Subject.FABRIC8);
        Case large = new Case(largeConfigMaps, FULL, Subject.FABRIC8);
        report.add(small, new Sample(1_000, 30_000_000));
        report.add(large, new Sample(1_000, 66_000_000));

        // 9,000 more ConfigMaps listed, 36,000,000 more bytes retained
        assertThat(report.marginalBytesPerObject(large)).hasValue(4_000);
        assertThat(report.marginalBytesPerObject(small)).isEmpty();
        assertThat(report.bytesPerObject(large)).isEmpty();
    }

    @Test
    void theWarmSyncIsReadAndComparedWithTheFasterPeerOnlyWhereEveryRunMeasuredIt() {
        Case ours = new Case(largeConfigMaps, FULL, Subject.OURS);
        Case official = new Case(largeConfigMaps, FULL, Subject.OFFICIAL);
        Case fabric8 = new Case(largeConfigMaps, FULL, Subject.FABRIC8);
        report.add(ours, new Sample(4_000, 1, 600));
        report.add(ours, new Sample(4_200, 1, 800));
        report.add(ours, new Sample(4_100, 1, 700));
        report.add(official, new Sample(2_800, 1, 1_400));
        report.add(fabric8, new Sample(3_600, 1, 2_000));
        report.add(fabric8, new Sample(3_600, 1));

        assertThat(report.warmSyncMillis(ours)).hasValue(700);
        assertThat(report.warmSyncMillis(fabric8)).as("one run did not measure it").isEmpty();
        assertThat(report.warmTimeRatio(largeConfigMaps, FULL)).hasValue(0.5);
        assertThat(report.markdown()).contains("#### Time to synced again, warm").contains("**0.50x**");
    }

    @Test
    void theResidentSetSizeIsShownOnlyWhereEveryRunMeasuredIt() {
        Case ours = new Case(largeConfigMaps, FULL, Subject.OURS);
        Case official = new Case(largeConfigMaps, FULL, Subject.OFFICIAL);
        report.add(ours, new Sample(4_000, 1, 600, 100L << 20));
        report.add(ours, new Sample(4_000, 1, 600, 300L << 20));
        report.add(ours, new Sample(4_000, 1, 600, 200L << 20));
        report.add(official, new Sample(4_000, 1, 600, 100L << 20));
        report.add(official, new Sample(4_000, 1, 600));
        report.addBaseline(new Baseline(CONFIGMAPS, FULL, Subject.OURS), 1, 30L << 20);

        String markdown = report.markdown();
        assertThat(markdown).contains("| 10,001 ConfigMaps | ours (default transform) | 3 | 4,000 / 4,000 / 4,000 ms | "
                + "0.00 / 0.00 / 0.00 MiB | 0.0 MiB | 0 B | 100 / 200 / 300 MiB |");
        assertThat(markdown).contains("| 10,001 ConfigMaps | official client-java 25.0.0 | 2 | 4,000 / 4,000 / 4,000 ms | "
                + "0.00 / 0.00 / 0.00 MiB | – | – | – |");
        assertThat(markdown).contains("| ConfigMaps | ours (default transform) | 1 | 0.00 / 0.00 / 0.00 MiB | "
                + "30.00 / 30.00 / 30.00 MiB |");
    }

    /** One run of {@code measured} whose cache alone is {@code cacheBytes} over a fixed cost of 1 MiB. */
    private void measure(Case measured, long syncMillis, long cacheBytes) {
        report.addBaseline(new Baseline(measured.workload().kind(), measured.projection(), measured.subject()), 1 << 20);
        report.add(measured, new Sample(syncMillis, (1 << 20) + cacheBytes));
    }
}

package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.operatorstarter.benchmarks.ColdSyncReport.Case;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ColdSyncReportTest {

    private static final Projection FULL = Projection.FULL_OBJECTS;

    private final ScaleCurve curve = ScaleCurve.of(List.of(2_000), List.of(), 3, 3);
    private final Workload configMaps = curve.sizes(Workload.Kind.CONFIGMAPS).get(0);

    @Test
    void theGoalIsReadOnOursWithTheAotCacheAgainstControllerRuntime() {
        ColdSyncReport report = new ColdSyncReport(curve, ColdSync.variants(true), "17.0.15", "25.0.3");
        for (long millis : List.of(1_800L, 1_600L, 1_700L)) {
            report.add(new Case(configMaps, FULL, Subject.OURS, ClassData.NONE), millis);
        }
        for (long millis : List.of(400L, 300L, 500L)) {
            report.add(new Case(configMaps, FULL, Subject.OURS, ClassData.AOT_CACHE), millis);
        }
        for (long millis : List.of(50L, 60L, 40L)) {
            report.add(new Case(configMaps, FULL, Subject.CONTROLLER_RUNTIME, ClassData.NONE), millis);
        }

        assertThat(report.controllerRuntimeRatio(configMaps, FULL).getAsDouble()).isCloseTo(8.0, within(1e-9));
        String markdown = report.markdown(Duration.ofSeconds(12));
        assertThat(markdown).contains("| 2,001 ConfigMaps | ours (default transform) | 1,700 ms (1,600–1,800) | – | – "
                + "| 400 ms (300–500) | 50 ms | **8.0x** |");
        assertThat(markdown).contains("- Cold sync, ours with the AOT cache ÷ controller-runtime (goal ≤ 5x): "
                + "2,001 ConfigMaps: **8.0x**; not met at any size.");
    }

    @Test
    void withoutANewerJdkTheGoalIsReadOnTheAppCdsArchive() {
        ColdSyncReport report = new ColdSyncReport(curve, ColdSync.variants(false), "17.0.15", "none");
        report.add(new Case(configMaps, FULL, Subject.OURS, ClassData.NONE), 1_000);
        report.add(new Case(configMaps, FULL, Subject.OURS, ClassData.CDS), 200);
        report.add(new Case(configMaps, FULL, Subject.CONTROLLER_RUNTIME, ClassData.NONE), 50);
        report.addTraining(new ColdSync.Key(Subject.OURS, FULL, Workload.Kind.CONFIGMAPS), ClassData.CDS,
                new ColdSyncReport.Training(Duration.ofMillis(2_500), 30L << 20));

        String markdown = report.markdown(Duration.ofSeconds(1));
        assertThat(markdown).contains("| JDK 17 | JDK 17 + AppCDS | controller-runtime | JDK 17 + AppCDS ÷ controller-runtime |");
        assertThat(markdown).contains("| ours (default transform) | ConfigMaps | 2.5 s, 30 MiB |");
        assertThat(markdown).contains("2,001 ConfigMaps: **4.0x**; met at every size.");
    }

    @Test
    void eachArchivedRunMapsItsArchiveAndRefusesToStartWithoutIt() {
        Path archive = Path.of("/tmp/ours.aot");

        assertThat(ClassData.AOT_CACHE.trainingOptions(archive)).containsExactly("-XX:AOTCacheOutput=/tmp/ours.aot");
        assertThat(ClassData.AOT_CACHE.runOptions(archive)).containsExactly("-XX:AOTCache=/tmp/ours.aot", "-XX:AOTMode=on");
        assertThat(ClassData.CDS.runOptions(Path.of("/tmp/ours.jsa")))
                .containsExactly("-XX:SharedArchiveFile=/tmp/ours.jsa", "-Xshare:on");
        assertThat(ClassData.NONE.runOptions(archive)).isEmpty();
        assertThat(ColdSync.subjects(curve, configMaps, FULL)).containsExactly(Subject.OURS, Subject.FABRIC8,
                Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME);
    }
}

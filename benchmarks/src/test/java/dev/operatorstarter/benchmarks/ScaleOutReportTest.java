package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleOutReportTest {

    private static final long MIB = 1024 * 1024;

    private final ScaleOutReport.Run one = new ScaleOutReport.Run(List.of(
            new ScaleOutReport.Replica("s1", true, 3_000, new ReplicaStatus.Tally(3_000, 10_000, 70_000), 30 * MIB)),
            Duration.ofMillis(65_400));
    private final ScaleOutReport.Run two = new ScaleOutReport.Run(List.of(
            new ScaleOutReport.Replica("s1", false, 1_200, new ReplicaStatus.Tally(1_200, 10_000, 34_000), 22 * MIB),
            new ScaleOutReport.Replica("s2", true, 1_800, new ReplicaStatus.Tally(1_800, 10_500, 46_500), 25 * MIB)),
            Duration.ofMillis(40_000));

    @Test
    void theWavesRateSpansTheFirstReconcileOnAnyReplicaToTheLastOneAnywhere() {
        assertThat(one.perSecond()).isEqualTo(50.0);
        assertThat(two.reconciles()).isEqualTo(3_000);
        assertThat(two.waveMillis()).isEqualTo(36_500);
        assertThat(two.perSecond()).isCloseTo(3_000 / 36.5, within(1e-9));
    }

    @Test
    void eachReplicasRateSpansItsOwnReconcilesAndAddedUpTheyIgnoreTheImbalance() {
        assertThat(two.replicas()).extracting(ScaleOutReport.Replica::perSecond).containsExactly(50.0, 50.0);
        assertThat(two.perSecondWhileBusy()).isEqualTo(100.0);
        assertThat(two.balance()).isEqualTo(1.5);
    }

    @Test
    void theTablesHaveARowPerReplicaCountAndOnePerReplicaWithTheLeaderMarked() {
        String markdown = new ScaleOutReport(3_000, Duration.ofMillis(20), 1, List.of(one, two)).markdown();

        assertThat(markdown)
                .contains("| 1 | **50.0** | 50 | 100% | 50.0 | 3,000 in 60.0 s | 3,000 | 1.00 | 30.0* | 65.4 s |")
                .contains("| 2 | **82.2** | 100 | 82% | 100.0 | 3,000 in 36.5 s | 1,200 / 1,800 | 1.50 | 22.0 / 25.0* | 40.0 s |")
                .contains("| 2 | s1 | 1,200 | 1,200 | 24.0 s | 50.0 | 22.0 MiB |")
                .contains("| 2 | s2 (leads) | 1,800 | 1,800 | 36.0 s | 50.0 | 25.0 MiB |");
    }
}

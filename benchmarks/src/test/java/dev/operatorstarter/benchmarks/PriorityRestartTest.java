package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PriorityRestartTest {

    @Test
    void percentilesAreTheNearestRankOfTheLatenciesInMilliseconds() {
        PriorityRestart.Result result = PriorityRestart.Result.of("ours, priority", "latency",
                List.of(5_000_000L, 1_000_000L, 4_000_000L, 2_000_000L, 3_000_000L),
                List.of(1_000_000L, 2_000_000L, 3_000_000L), 12.5, 1.0, 0);
        assertThat(result.p50()).isEqualTo(3.0);
        assertThat(result.p99()).isEqualTo(5.0);
        assertThat(result.max()).isEqualTo(5.0);
        assertThat(result.updates()).isEqualTo(5);
        assertThat(result.p99Reconciling()).isEqualTo(3.0);
        assertThat(result.firstReconcileMillis()).isEqualTo(12.5);
    }

    @Test
    void aSaturationRunHasNoLatencies() {
        PriorityRestart.Result result = PriorityRestart.Result.of("ours, FIFO", "saturation", List.of(), List.of(), 41.0,
                6.2, 0);
        assertThat(result.p50()).isNaN();
        assertThat(PriorityRestart.table(List.of(result)))
                .contains("| ours, FIFO | saturation |  |  |  |  |  | 41 ms | 6.2 s |");
    }

    @Test
    void aForkedRunsResultLineReadsBackAsTheSameResult() {
        PriorityRestart.Result starved = new PriorityRestart.Result("controller-runtime, priority", "saturation",
                Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, 101.5, Double.NaN, 9_995);
        PriorityRestart.Result latency = PriorityRestart.Result.of("ours, priority", "latency", List.of(1_500_000L),
                List.of(1_500_000L), 60.2, 5.9, 0);
        for (PriorityRestart.Result result : List.of(starved, latency)) {
            assertThat(PriorityRestart.Result.parse(result.line().split(" "))).isEqualTo(result);
        }
        assertThat(PriorityRestart.table(List.of(starved))).contains("not within 120 s: 9,995 of 10,000 left");
    }

    @Test
    void anObjectLeftIsDrawnFromTheListAndNoneOnceTheWorkersTookThemAll() {
        List<io.fabric8.kubernetes.api.model.ConfigMap> listed = List.of(PriorityRestart.configMap("a", "1"),
                PriorityRestart.configMap("b", "1"), PriorityRestart.configMap("c", "1"));
        java.util.Random random = new java.util.Random(7);

        assertThat(PriorityRestart.anyLeft(random, listed, java.util.Set.of("b"))).isEqualTo("b");
        assertThat(PriorityRestart.anyLeft(random, listed, java.util.Set.of())).isNull();
    }
}

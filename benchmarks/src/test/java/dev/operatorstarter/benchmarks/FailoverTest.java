package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FailoverTest {

    @Test
    void theTablePutsOursBesideControllerRuntimeWithTheRatioOfTheMedians() {
        Map<Subject, List<Long>> results = new LinkedHashMap<>();
        results.put(Subject.OURS, List.of(16_000L, 17_000L, 18_000L));
        results.put(Subject.CONTROLLER_RUNTIME, List.of(15_500L, 17_000L, 16_000L));

        String markdown = Failover.markdown(3, results);

        assertThat(markdown).contains("Lease duration 15 s, renew deadline 10 s, retry period 2 s")
                .contains("| ours | 16.00 / 17.00 / 18.00 |")
                .contains("| controller-runtime v0.25.2 | 15.50 / 16.00 / 17.00 |")
                .contains("Ours ÷ controller-runtime (medians): **1.06x** (goal ≤ 1x).");
    }

    @Test
    void withOneSubjectThereIsNoRatio() {
        assertThat(Failover.markdown(1, Map.of(Subject.OURS, List.of(16_000L)))).contains("1 run per subject")
                .doesNotContain("Ours ÷");
    }
}

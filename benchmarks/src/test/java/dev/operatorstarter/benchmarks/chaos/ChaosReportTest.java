package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.Subject;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChaosReportTest {

    private static TrialResult trial(Subject subject, int n, boolean passed, OptionalLong recovery, long lists) {
        return new TrialResult(subject, n, passed ? List.of() : List.of("key-01 missing (server has 5)"), List.of(),
                recovery, passed ? OptionalLong.of(40 * n) : OptionalLong.empty(), lists, 2, 1);
    }

    @Test
    void aScenarioGetsATableWithARowPerSubjectOfMediansMaximaAndPassedTrials() {
        ChaosReport report = new ChaosReport(Duration.ofSeconds(30), Duration.ofSeconds(20));
        Scenario scenario = new Scenario("cut streams", "every watch cut", targets -> { });

        report.add(scenario, List.of(
                trial(Subject.OURS, 1, true, OptionalLong.of(1000), 1),
                trial(Subject.FABRIC8, 1, true, OptionalLong.of(500), 2),
                trial(Subject.OURS, 2, true, OptionalLong.of(3000), 1),
                trial(Subject.FABRIC8, 2, false, OptionalLong.empty(), 4),
                trial(Subject.OURS, 3, true, OptionalLong.of(2000), 2)));

        assertThat(report.markdown()).contains("#### cut streams\n\nevery watch cut.\n")
                .contains("| ours | 3 | 3 | 2.00 / 3.00 s | 0.08 / 0.12 s | 1 / 2 | 2 / 2 | 3 |")
                .contains("| fabric8 8.0.0 | 2 | **1** | 15.25 / 30.00 s (1 with none within 30 s) "
                        + "| 0.04 / 0.04 s (1 never within 20 s) | 3 / 4 | 2 / 2 | 2 |");
    }

    @Test
    void aSubjectLeftOutOfTheLastTrialsSaysSo() {
        ChaosReport report = new ChaosReport(Duration.ofSeconds(30), Duration.ofSeconds(20));
        Scenario scenario = new Scenario("lost connections", "connections lost", targets -> { });

        report.add(scenario, List.of(
                trial(Subject.OURS, 1, true, OptionalLong.of(5000), 0),
                trial(Subject.OFFICIAL, 1, false, OptionalLong.empty(), 0),
                trial(Subject.OURS, 2, true, OptionalLong.of(5000), 0)), Set.of(Subject.OFFICIAL));

        assertThat(report.markdown()).contains("| ours | 2 | 2 |")
                .contains("| " + Subject.OFFICIAL.label() + " | 1 (then left out after " + InformerChaos.LEAVE_OUT_AFTER
                        + " failures in a row) | **0** |");
    }
}

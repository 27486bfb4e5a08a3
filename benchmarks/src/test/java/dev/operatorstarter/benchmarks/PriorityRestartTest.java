package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PriorityRestartTest {

    @Test
    void percentilesAreTheNearestRankOfTheLatencies() {
        PriorityRestart.Result result = new PriorityRestart.Result("ours, priority", "latency",
                List.of(5.0, 1.0, 4.0, 2.0, 3.0), 1.0, 0);
        assertThat(result.percentile(0.5)).isEqualTo(3.0);
        assertThat(result.percentile(0.99)).isEqualTo(5.0);
        assertThat(result.percentile(1.0)).isEqualTo(5.0);
        assertThat(result.percentile(0.2)).isEqualTo(1.0);
    }

    @Test
    void aSaturationRunHasNoLatencies() {
        assertThat(new PriorityRestart.Result("ours, FIFO", "saturation", List.of(), 6.2, 0).percentile(0.5)).isNaN();
    }
}

package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.operatorstarter.benchmarks.Subject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChaosOptionsTest {

    @Test
    void byDefaultOneTrialOfOursOnly() {
        ChaosOptions options = ChaosOptions.builder().build();

        assertThat(options.trials()).isEqualTo(1);
        assertThat(options.subjects()).containsExactly(Subject.OURS);
    }

    @Test
    void theSystemPropertiesNameTheTrialsAndTheSubjects() {
        String trials = System.getProperty(ChaosOptions.TRIALS);
        String subjects = System.getProperty(ChaosOptions.SUBJECTS);
        try {
            System.setProperty(ChaosOptions.TRIALS, "20");
            System.setProperty(ChaosOptions.SUBJECTS, "ours, fabric8,OFFICIAL");

            ChaosOptions options = ChaosOptions.fromSystemProperties();

            assertThat(options.trials()).isEqualTo(20);
            assertThat(options.subjects()).containsExactly(Subject.OURS, Subject.FABRIC8, Subject.OFFICIAL);
        } finally {
            restore(ChaosOptions.TRIALS, trials);
            restore(ChaosOptions.SUBJECTS, subjects);
        }
    }

    private static void restore(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }

    @Test
    void invalidSizesAreRejectedNamingTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> ChaosOptions.builder().trials(0).build())
                .withMessageContaining("trials");
        assertThatIllegalArgumentException().isThrownBy(() -> ChaosOptions.builder().subjects(List.of()).build())
                .withMessageContaining("subjects");
        assertThatIllegalArgumentException().isThrownBy(() -> ChaosOptions.builder().faultTime(Duration.ZERO).build())
                .withMessageContaining("faultTime");
    }
}

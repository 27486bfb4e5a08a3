package dev.operatorstarter.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void aPositiveDurationPassesThrough() {
        assertThat(Durations.requirePositive(Duration.ofNanos(1), "timeout")).isEqualTo(Duration.ofNanos(1));
    }

    @Test
    void zeroAndNegativeAreNotPositiveAndTheMessageNamesTheField() {
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.requirePositive(Duration.ZERO, "timeout"))
                .withMessage("timeout must be positive, was PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.requirePositive(Duration.ofSeconds(-1), "timeout"))
                .withMessage("timeout must be positive, was PT-1S");
    }

    @Test
    void zeroIsNotNegativeButLessIs() {
        assertThat(Durations.requireNotNegative(Duration.ZERO, "delay")).isZero();
        assertThatIllegalArgumentException().isThrownBy(() -> Durations.requireNotNegative(Duration.ofMillis(-1), "delay"))
                .withMessage("delay must not be negative, was PT-0.001S");
    }

    @Test
    void aMissingDurationIsRejectedByName() {
        assertThatNullPointerException().isThrownBy(() -> Durations.requirePositive(null, "timeout")).withMessage("timeout");
        assertThatNullPointerException().isThrownBy(() -> Durations.requireNotNegative(null, "delay")).withMessage("delay");
    }
}

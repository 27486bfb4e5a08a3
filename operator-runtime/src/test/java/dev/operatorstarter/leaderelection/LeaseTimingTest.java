package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.operatorstarter.testing.InMemoryLeaseLock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseTimingTest {

    @Test
    void theDefaultsAreClientGos() {
        assertThat(LeaseTiming.defaults()).isEqualTo(new LeaseTiming(Duration.ofSeconds(15), Duration.ofSeconds(10),
                Duration.ofSeconds(2)));
    }

    @Test
    void aLeaseMustBeLongerThanTheRenewDeadlineWhichLeavesRoomForAJitteredRetry() {
        assertThatIllegalArgumentException().isThrownBy(() -> new LeaseTiming(Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(2)))
                .withMessage("leaseDuration (PT10S) must be greater than renewDeadline (PT10S)");
        assertThatIllegalArgumentException().isThrownBy(() -> new LeaseTiming(Duration.ofSeconds(15),
                Duration.ofMillis(2400), Duration.ofSeconds(2)))
                .withMessage("renewDeadline (PT2.4S) must be greater than 1.2 × retryPeriod (PT2S)");
        assertThat(new LeaseTiming(Duration.ofSeconds(15), Duration.ofMillis(2401), Duration.ofSeconds(2)).renewDeadline())
                .isEqualTo(Duration.ofMillis(2401));
    }

    @Test
    void eachDurationMustBePositiveAndPresentAndTheMessageNamesIt() {
        assertThatIllegalArgumentException().isThrownBy(() -> new LeaseTiming(Duration.ofSeconds(15),
                Duration.ofSeconds(10), Duration.ZERO)).withMessage("retryPeriod must be positive, was PT0S");
        assertThatIllegalArgumentException().isThrownBy(() -> new LeaseTiming(Duration.ofSeconds(-1),
                Duration.ofSeconds(10), Duration.ofSeconds(2))).withMessage("leaseDuration must be positive, was PT-1S");
        assertThatNullPointerException().isThrownBy(() -> new LeaseTiming(Duration.ofSeconds(15), null,
                Duration.ofSeconds(2))).withMessage("renewDeadline");
    }

    @Test
    void leaderElectionTakesTheTimingAtOnceAndDefaultsToClientGos() {
        InMemoryLeaseLock lock = new InMemoryLeaseLock("a");
        LeaderCallbacks callbacks = leadership -> { };
        assertThat(LeaderElectionConfig.builder(lock, callbacks).build().timing()).isEqualTo(LeaseTiming.defaults());
        LeaseTiming timing = new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500));
        assertThat(LeaderElectionConfig.builder(lock, callbacks).timing(timing).build().timing()).isEqualTo(timing);
    }
}

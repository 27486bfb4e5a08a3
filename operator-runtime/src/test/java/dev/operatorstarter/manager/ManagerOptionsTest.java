package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The manager's options: documented defaults, and bad values refused with the field's name. */
class ManagerOptionsTest {

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        ManagerOptions defaults = ManagerOptions.defaults();
        assertThat(defaults.cacheSyncTimeout()).isEqualTo(Duration.ofMinutes(2));
        assertThat(defaults.shutdownTimeout()).isEqualTo(Duration.ofSeconds(25));
        assertThat(defaults.timeSource()).isSameAs(TimeSource.system());
        assertThat(defaults.threadFactory().newThread(() -> { }).isDaemon()).isTrue();
    }

    @Test
    void badDurationsAreRefusedNamingTheField() {
        assertThatThrownBy(() -> ManagerOptions.builder().cacheSyncTimeout(Duration.ZERO).build())
                .hasMessage("cacheSyncTimeout must be positive, was PT0S");
        assertThatThrownBy(() -> ManagerOptions.builder().shutdownTimeout(Duration.ofSeconds(-1)).build())
                .hasMessage("shutdownTimeout must not be negative, was PT-1S");
        assertThat(ManagerOptions.builder().shutdownTimeout(Duration.ZERO).build().shutdownTimeout()).isZero();
    }
}

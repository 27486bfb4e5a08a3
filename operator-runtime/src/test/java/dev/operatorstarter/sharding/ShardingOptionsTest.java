package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.leaderelection.LeaseTiming;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The options of a ring member: the documented defaults, and each bad value refused naming its field. */
class ShardingOptionsTest {

    @Test
    void theDefaultsAreTheDocumentedOnes() {
        ShardingOptions options = ShardingOptions.builder("ring", "replica-1", "operators").build();

        assertThat(options.virtualNodes()).isEqualTo(100);
        assertThat(options.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
        assertThat(options.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.retryPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(options.timing()).isEqualTo(LeaseTiming.defaults());
        assertThat(options.resyncPeriod()).isEqualTo(Duration.ofMinutes(5));
        assertThat(options.assignerWorkers()).isEqualTo(4);
        assertThat(options.arrivalTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(options.orphanTtl()).isEqualTo(Duration.ofMinutes(1));
        assertThat(options.metrics()).isSameAs(ShardingMetrics.NONE);
        assertThat(options.timeSource()).isSameAs(TimeSource.system());
        assertThat(options.labels()).isEqualTo(new ShardLabels("ring", "replica-1"));
    }

    @Test
    void theLeaseTimingIsSetAtOnceOrOneDurationAtATime() {
        LeaseTiming timing = new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(500));
        assertThat(ShardingOptions.builder("ring", "replica-1", "operators").timing(timing).build().timing())
                .isEqualTo(timing);
        assertThat(ShardingOptions.builder("ring", "replica-1", "operators").timing(timing)
                .retryPeriod(Duration.ofMillis(300)).build().retryPeriod()).isEqualTo(Duration.ofMillis(300));
    }

    static Stream<Arguments> badOptions() {
        return Stream.of(
                Arguments.of("ring", (UnaryOperator<ShardingOptions.Builder>) b -> b, "Ring", "a", "ns"),
                Arguments.of("shardId", (UnaryOperator<ShardingOptions.Builder>) b -> b, "ring", "a_b", "ns"),
                Arguments.of("namespace", (UnaryOperator<ShardingOptions.Builder>) b -> b, "ring", "a", " "),
                Arguments.of("virtualNodes", (UnaryOperator<ShardingOptions.Builder>) b -> b.virtualNodes(0), "ring", "a", "ns"),
                Arguments.of("virtualNodes", (UnaryOperator<ShardingOptions.Builder>) b -> b.virtualNodes(1001), "ring", "a", "ns"),
                Arguments.of("leaseDuration", (UnaryOperator<ShardingOptions.Builder>) b -> b.leaseDuration(Duration.ofSeconds(10)),
                        "ring", "a", "ns"),
                Arguments.of("renewDeadline", (UnaryOperator<ShardingOptions.Builder>) b -> b.retryPeriod(Duration.ofSeconds(9)),
                        "ring", "a", "ns"),
                Arguments.of("retryPeriod", (UnaryOperator<ShardingOptions.Builder>) b -> b.retryPeriod(Duration.ZERO),
                        "ring", "a", "ns"),
                Arguments.of("resyncPeriod", (UnaryOperator<ShardingOptions.Builder>) b -> b.resyncPeriod(Duration.ofSeconds(-1)),
                        "ring", "a", "ns"),
                Arguments.of("assignerWorkers", (UnaryOperator<ShardingOptions.Builder>) b -> b.assignerWorkers(0),
                        "ring", "a", "ns"),
                Arguments.of("arrivalTimeout", (UnaryOperator<ShardingOptions.Builder>) b -> b.arrivalTimeout(Duration.ZERO),
                        "ring", "a", "ns"),
                Arguments.of("orphanTtl", (UnaryOperator<ShardingOptions.Builder>) b -> b.orphanTtl(Duration.ZERO),
                        "ring", "a", "ns"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badOptions")
    void aBadValueIsRefusedNamingItsField(String field, UnaryOperator<ShardingOptions.Builder> change, String ring,
            String shardId, String namespace) {
        assertThatThrownBy(() -> change.apply(ShardingOptions.builder(ring, shardId, namespace)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(field);
    }
}

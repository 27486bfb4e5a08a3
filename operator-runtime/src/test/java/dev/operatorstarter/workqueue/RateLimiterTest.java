package dev.operatorstarter.workqueue;

import dev.operatorstarter.testing.FakeTimeSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every rate limiter, on a fake clock. */
class RateLimiterTest {

    private final FakeTimeSource clock = new FakeTimeSource();

    @Test
    void exponentialDoublesPerItemFromFiveMillisecondsUpToItsCapAndForgetStartsOver() {
        RateLimiter<String> limiter = RateLimiter.exponential(Duration.ofMillis(5), Duration.ofSeconds(1000));
        List<Duration> delays = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            delays.add(limiter.when("a"));
        }
        assertThat(delays).containsExactly(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20),
                Duration.ofMillis(40));
        assertThat(limiter.when("b")).as("per item").isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.numRequeues("a")).isEqualTo(4);
        for (int i = 0; i < 100; i++) {
            limiter.when("a");
        }
        assertThat(limiter.when("a")).as("capped, no overflow").isEqualTo(Duration.ofSeconds(1000));
        limiter.forget("a");
        assertThat(limiter.numRequeues("a")).isZero();
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void theBucketLetsABurstThroughThenSpacesCallsAtItsRate() {
        RateLimiter<String> limiter = RateLimiter.bucket(10, 100, clock);
        for (int i = 0; i < 100; i++) {
            assertThat(limiter.when("x" + i)).as("call %d of the burst", i).isZero();
        }
        assertThat(limiter.when("late-1")).isEqualTo(Duration.ofMillis(100));
        assertThat(limiter.when("late-2")).isEqualTo(Duration.ofMillis(200));
        clock.advance(Duration.ofSeconds(1));
        // 1 s refilled 10 tokens, which repay the 2 of debt: 8 more go through at once.
        for (int i = 0; i < 8; i++) {
            assertThat(limiter.when("refilled-" + i)).isZero();
        }
        assertThat(limiter.when("next")).isEqualTo(Duration.ofMillis(100));
        assertThat(limiter.numRequeues("next")).isZero();
    }

    @Test
    void maxOfTakesTheLongestDelayAndForgetsEverywhere() {
        RateLimiter<String> limiter = RateLimiter.maxOf(RateLimiter.exponential(Duration.ofMillis(5),
                Duration.ofSeconds(1000)), RateLimiter.fastSlow(Duration.ofMillis(1), Duration.ofSeconds(10), 2));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
        assertThat(limiter.when("a")).isEqualTo(Duration.ofSeconds(10));
        assertThat(limiter.numRequeues("a")).isEqualTo(3);
        limiter.forget("a");
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
    }

    @Test
    void fastSlowIsFastForTheFirstAttemptsOnly() {
        RateLimiter<String> limiter = RateLimiter.fastSlow(Duration.ofMillis(10), Duration.ofMinutes(1), 3);
        assertThat(List.of(limiter.when("a"), limiter.when("a"), limiter.when("a"), limiter.when("a")))
                .containsExactly(Duration.ofMillis(10), Duration.ofMillis(10), Duration.ofMillis(10),
                        Duration.ofMinutes(1));
        limiter.forget("a");
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(10));
    }

    @Test
    void theControllerDefaultIsExponentialUnderAnOverallBucket() {
        RateLimiter<String> limiter = RateLimiter.defaultController(clock);
        assertThat(limiter.when("a")).isEqualTo(Duration.ofMillis(5));
        for (int i = 0; i < 99; i++) {
            limiter.when("other-" + i);
        }
        assertThat(limiter.when("a")).as("the bucket is empty: 100 ms beats 10 ms").isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void badSettingsAreRefusedWithTheirName() {
        assertThatThrownBy(() -> RateLimiter.exponential(Duration.ZERO, Duration.ofSeconds(1))).hasMessageContaining("base");
        assertThatThrownBy(() -> RateLimiter.bucket(0, 1, clock)).hasMessageContaining("qps");
        assertThatThrownBy(() -> RateLimiter.bucket(1, 0, clock)).hasMessageContaining("burst");
        assertThatThrownBy(() -> RateLimiter.fastSlow(Duration.ZERO, Duration.ZERO, -1))
                .hasMessageContaining("maxFastAttempts");
    }
}

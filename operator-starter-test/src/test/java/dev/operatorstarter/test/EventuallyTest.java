package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {

    private static final Duration LONG_ENOUGH = Duration.ofSeconds(10);
    private static final Duration SHORT = Duration.ofMillis(200);

    @Test
    void returnsTheFirstValueThatSatisfiesTheCondition() {
        AtomicInteger calls = new AtomicInteger();

        int value = Eventually.await("the third call", LONG_ENOUGH, calls::incrementAndGet, n -> n >= 3);

        assertThat(value).isEqualTo(3);
        assertThat(calls).hasValue(3);
    }

    @Test
    void aProbeThatThrowsIsTriedAgain() {
        AtomicInteger calls = new AtomicInteger();

        String value = Eventually.await("the widget to exist", LONG_ENOUGH, () -> {
            if (calls.incrementAndGet() < 3) {
                throw new IllegalStateException("widget w1 not found");
            }
            return "w1";
        }, name -> true);

        assertThat(value).isEqualTo("w1");
        assertThat(calls).hasValue(3);
    }

    @Test
    void aProbeThatFailsAnAssertionIsTriedAgain() {
        AtomicInteger calls = new AtomicInteger();

        int value = Eventually.await("the assertion to pass", LONG_ENOUGH, () -> {
            int n = calls.incrementAndGet();
            assertThat(n).isGreaterThan(2);
            return n;
        }, n -> true);

        assertThat(value).isEqualTo(3);
    }

    @Test
    void aNullValueIsJudgedByTheCondition() {
        AtomicInteger calls = new AtomicInteger();

        String value = Eventually.await("the status to be cleared", LONG_ENOUGH,
                () -> calls.incrementAndGet() < 2 ? "Pending" : null, status -> status == null);

        assertThat(value).isNull();
    }

    @Test
    void aTimeoutSaysWhatWasAwaitedForHowLongTheLastValueAndTheLastException() {
        AtomicInteger calls = new AtomicInteger();

        assertThatThrownBy(() -> Eventually.await("widget w1 to be Ready", SHORT, () -> {
            if (calls.incrementAndGet() % 2 == 1) {
                throw new IllegalStateException("connection refused");
            }
            return "Widget[w1, phase=Pending]";
        }, status -> status.contains("Ready")))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("timed out after 200ms waiting for widget w1 to be Ready")
                .hasMessageContaining("last value: Widget[w1, phase=Pending]")
                .hasMessageContaining("last exception: java.lang.IllegalStateException: connection refused")
                .cause().isInstanceOf(IllegalStateException.class).hasMessage("connection refused");
        assertThat(calls.get()).as("polled, not called once").isGreaterThan(1);
    }

    @Test
    void aTimeoutWithoutAnyValueSaysSo() {
        assertThatThrownBy(() -> Eventually.await("the server", SHORT, () -> {
            throw new IllegalStateException("connection refused");
        }, value -> true))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("last value: none (the probe never returned)");
    }

    @Test
    void aConditionWaitsUntilItHoldsAndTimesOutWhenItNeverDoes() {
        AtomicInteger calls = new AtomicInteger();

        Eventually.await("the second call", LONG_ENOUGH, () -> calls.incrementAndGet() == 2);

        assertThat(calls).hasValue(2);
        assertThatThrownBy(() -> Eventually.await("the finalizer to be removed", Duration.ofSeconds(1), () -> false))
                .isInstanceOf(AssertionError.class)
                .hasMessage("timed out after 1s waiting for the finalizer to be removed; last value: false; "
                        + "last exception: none");
    }

    @Test
    void aZeroTimeoutProbesOnce() {
        AtomicInteger calls = new AtomicInteger();

        assertThat(Eventually.await("anything", Duration.ZERO, calls::incrementAndGet, n -> true)).isEqualTo(1);
        assertThatThrownBy(() -> Eventually.await("nothing", Duration.ZERO, calls::incrementAndGet, n -> false))
                .isInstanceOf(AssertionError.class);
        assertThat(calls).hasValue(2);
    }

    @Test
    void aNegativeTimeoutIsRejected() {
        assertThatThrownBy(() -> Eventually.await("anything", Duration.ofSeconds(-1), () -> true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout");
    }

    @Test
    void anInterruptEndsTheWaitAndKeepsTheFlag() {
        try {
            assertThatThrownBy(() -> Eventually.await("an interrupt", LONG_ENOUGH, () -> {
                Thread.currentThread().interrupt();
                return false;
            })).isInstanceOf(IllegalStateException.class).hasMessageContaining("interrupted");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }
}

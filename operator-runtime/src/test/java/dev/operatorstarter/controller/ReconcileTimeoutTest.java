package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.controller.ReconcileTimeout.State;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reconcile timeout's states, driven by hand on the test's own thread (no timer, no sleeping). */
class ReconcileTimeoutTest {

    private final ReconcileTimeout timeout = new ReconcileTimeout(Thread.currentThread());

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aReconcileThatEndsFirstIsDoneAndALateTimerInterruptsNothing() {
        timeout.disarm();
        timeout.expire();
        assertThat(timeout.state()).isEqualTo(State.DONE);
        assertThat(timeout.expired()).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aTimerThatFiresFirstInterruptsTheWorkerOnce() {
        timeout.expire();
        assertThat(timeout.state()).isEqualTo(State.EXPIRED);
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
        Thread.interrupted();
        timeout.expire();
        assertThat(Thread.currentThread().isInterrupted()).as("fires once").isFalse();
    }

    @Test
    void disarmingAfterTheTimerFiredClearsItsInterruptSoTheNextReconcileNeverSeesIt() {
        timeout.expire();
        timeout.disarm();
        assertThat(timeout.expired()).as("still reported as expired").isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void withoutATimeoutNothingIsScheduledAndAnEndedReconcileCancelsItsTimer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
        timer.setRemoveOnCancelPolicy(true);
        try {
            ReconcileTimeout none = ReconcileTimeout.arm(timer, Duration.ZERO);
            assertThat(timer.getQueue()).as("a zero timeout schedules nothing").isEmpty();
            none.disarm();
            assertThat(none.state()).isEqualTo(State.DONE);

            ReconcileTimeout armed = ReconcileTimeout.arm(timer, Duration.ofHours(1));
            assertThat(timer.getQueue()).hasSize(1);
            armed.disarm();
            assertThat(timer.getQueue()).as("the reconcile ended: its timer is cancelled").isEmpty();
            assertThat(armed.state()).isEqualTo(State.DONE);

            ReconcileTimeout noTimer = ReconcileTimeout.arm(null, Duration.ofSeconds(1));
            noTimer.disarm();
            assertThat(noTimer.state()).isEqualTo(State.DONE);
        } finally {
            timer.shutdownNow();
        }
    }
}

package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The shared cluster's stop at JVM exit waits for the open holds, and the last one's closer stops it. */
class ExitStopTest {

    private static final Duration LIMIT = Duration.ofSeconds(30);

    /** The names of the threads that stopped the cluster, in order. */
    private final List<String> stops = new CopyOnWriteArrayList<>();
    private final AtomicBoolean jvmExiting = new AtomicBoolean();
    private final ExitStop exitStop = new ExitStop(() -> stops.add(Thread.currentThread().getName()), jvmExiting::get);

    @Test
    void anOpenHoldKeepsTheExitWaitingAndItsCloserStopsTheClusterBeforeTheExitEnds() throws InterruptedException {
        ClusterHold hold = exitStop.hold();
        Thread hook = new Thread(() -> exitStop.onExit(LIMIT), "hook");
        hook.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> hook.getState() == Thread.State.TIMED_WAITING);

        assertThat(stops).as("stopped while held").isEmpty();

        hold.close();

        assertThat(stops).as("stopped by the hold's closer, at once").containsExactly(Thread.currentThread().getName());
        hook.join(Duration.ofSeconds(10).toMillis());
        assertThat(hook.isAlive()).isFalse();
        assertThat(stops).as("once").hasSize(1);
    }

    @Test
    void closingTheLastHoldOnceTheJvmExitsStopsTheClusterEvenBeforeTheHookHasStarted() {
        ClusterHold hold = exitStop.hold();
        jvmExiting.set(true);

        hold.close();
        exitStop.onExit(LIMIT);

        assertThat(stops).containsExactly(Thread.currentThread().getName());
    }

    @Test
    void closingAHoldWhileTheJvmGoesOnStopsNothingAndTheExitStopsTheClusterAtOnce() {
        exitStop.hold().close();

        assertThat(stops).isEmpty();

        exitStop.onExit(LIMIT);

        assertThat(stops).hasSize(1);
    }

    @Test
    void aHoldStillOpenAfterTheLimitDoesNotKeepTheClusterRunningAndClosingItLaterStopsNothingMore() {
        ClusterHold hold = exitStop.hold();

        exitStop.onExit(Duration.ofMillis(50));

        assertThat(stops).hasSize(1);
        jvmExiting.set(true);
        hold.close();
        assertThat(stops).hasSize(1);
    }

    @Test
    void aHoldClosedTwiceCountsOnce() {
        ClusterHold first = exitStop.hold();
        ClusterHold second = exitStop.hold();
        jvmExiting.set(true);

        first.close();
        first.close();

        assertThat(stops).as("the second hold is open").isEmpty();

        second.close();

        assertThat(stops).hasSize(1);
    }
}

package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MicrometerLeaderMetricsTest {

    /**
     * The registry holds the gauge's value: a metrics object nobody keeps (a test's, or one made per
     * call) must not turn the gauge into NaN at the first garbage collection.
     */
    @Test
    void theStatusGaugeKeepsItsValueAfterTheMetricsObjectIsCollected() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LeaderMetrics metrics = LeaderMetrics.micrometer(registry);
        metrics.leading("gadget-operator", true);
        WeakReference<LeaderMetrics> collected = new WeakReference<>(metrics);
        metrics = null;

        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return collected.get() == null;
        });

        assertThat(registry.get("leader.election.master.status").tag("name", "gadget-operator").gauge().value())
                .isEqualTo(1.0);
    }
}

package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ring's metrics as Prometheus scrapes them: each name, its labels and its value. */
class MicrometerShardingMetricsTest {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final ShardingMetrics metrics = ShardingMetrics.micrometer(registry);

    @Test
    void theMemberStatusIsOneWhileTheTermLastsAndZeroAfter() {
        metrics.member("mirror", true);
        assertThat(registry.scrape()).contains("controller_sharding_member_status{ring=\"mirror\"} 1");

        metrics.member("mirror", false);
        assertThat(registry.scrape()).contains("controller_sharding_member_status{ring=\"mirror\"} 0")
                .containsOnlyOnce("controller_sharding_member_status{");
    }

    @Test
    void countersCountPerRingAndResource() {
        metrics.drainAcknowledged("mirror", "configmaps");
        metrics.drainAcknowledged("mirror", "configmaps");
        metrics.assigned("mirror", "configmaps");
        metrics.assigned("mirror", "deployments.apps");
        metrics.moved("mirror", "configmaps");
        metrics.drainRequested("mirror", "configmaps");
        metrics.drainRequested("mirror", "configmaps");
        metrics.drainRequested("mirror", "configmaps");

        assertThat(registry.scrape()).contains(
                "# TYPE controller_sharding_drain_acks_total counter",
                "controller_sharding_drain_acks_total{resource=\"configmaps\",ring=\"mirror\"} 2.0",
                "controller_sharding_assignments_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_assignments_total{resource=\"deployments.apps\",ring=\"mirror\"} 1.0",
                "controller_sharding_movements_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_drains_total{resource=\"configmaps\",ring=\"mirror\"} 3.0");
    }

    @Test
    void membersHaveOneSeriesPerStateLabelledInLowerCase() {
        Map<MemberState, Integer> byState = new EnumMap<>(MemberState.class);
        for (MemberState state : MemberState.values()) {
            byState.put(state, 0);
        }
        byState.put(MemberState.READY, 3);
        byState.put(MemberState.EXPIRED, 1);
        metrics.members("mirror", byState);
        byState.put(MemberState.READY, 2);
        metrics.members("mirror", byState);

        assertThat(registry.scrape()).contains(
                "controller_sharding_members{ring=\"mirror\",state=\"ready\"} 2",
                "controller_sharding_members{ring=\"mirror\",state=\"expired\"} 1",
                "controller_sharding_members{ring=\"mirror\",state=\"uncertain\"} 0",
                "controller_sharding_members{ring=\"mirror\",state=\"dead\"} 0",
                "controller_sharding_members{ring=\"mirror\",state=\"orphaned\"} 0");
    }

    @Test
    void pushedGaugesHoldTheLastValueGiven() {
        metrics.pendingDrains("mirror", 4);
        metrics.unassigned("mirror", "configmaps", 7);
        metrics.pendingDrains("mirror", 2);

        assertThat(registry.scrape()).contains(
                "controller_sharding_pending_drains{ring=\"mirror\"} 2",
                "controller_sharding_unassigned_objects{resource=\"configmaps\",ring=\"mirror\"} 7");
    }

    @Test
    void theShardsObjectsAreReadFromTheSupplierWhenScrapedAndASecondSupplierReplacesTheFirst() {
        AtomicInteger cached = new AtomicInteger(5);
        metrics.shardObjects("mirror", "mirror-controller", cached::get);
        assertThat(registry.scrape()).contains(
                "controller_sharding_objects{controller=\"mirror-controller\",ring=\"mirror\"} 5");

        cached.set(8);
        assertThat(registry.scrape()).contains(
                "controller_sharding_objects{controller=\"mirror-controller\",ring=\"mirror\"} 8");

        metrics.shardObjects("mirror", "mirror-controller", () -> 1);
        assertThat(registry.scrape()).containsOnlyOnce("controller_sharding_objects{").contains(
                "controller_sharding_objects{controller=\"mirror-controller\",ring=\"mirror\"} 1");
    }

    /** Its supplier is a lambda nothing else holds: Micrometer's default weak reference would read NaN after a GC. */
    @Test
    void theShardsObjectsGaugeKeepsItsSupplierThroughAGarbageCollection() {
        metrics.shardObjects("mirror", "mirror-controller", () -> 3);

        System.gc();

        assertThat(registry.get("controller.sharding.objects").gauge().value()).isEqualTo(3);
    }

    /** Its boundaries (25 ms to 5 minutes) are {@code PrometheusNamesTest}'s. */
    @Test
    void handoversArePublishedAsAHistogramInSeconds() {
        metrics.handedOver("mirror", Duration.ofMillis(300));

        assertThat(registry.scrape()).contains("# TYPE controller_sharding_handover_duration_seconds histogram",
                "controller_sharding_handover_duration_seconds_count{ring=\"mirror\"} 1",
                "controller_sharding_handover_duration_seconds_sum{ring=\"mirror\"} 0.3",
                // cumulative: 300 ms is below 0.5 s and not below 0.25 s
                "controller_sharding_handover_duration_seconds_bucket{ring=\"mirror\",le=\"0.25\"} 0",
                "controller_sharding_handover_duration_seconds_bucket{ring=\"mirror\",le=\"0.5\"} 1");
    }
}

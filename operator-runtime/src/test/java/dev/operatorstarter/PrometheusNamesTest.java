package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.cache.ReaderMetrics;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.sharding.MemberState;
import dev.operatorstarter.sharding.ShardingMetrics;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every metric name and label of DESIGN.md's table, as Micrometer's Prometheus registry renders
 * them: controller-runtime's names, so its dashboards and alerts work unchanged; and the sharding's
 * ({@code controller_sharding_*}), named as in the timebertt project where they mean the same.
 */
class PrometheusNamesTest {

    @Test
    void theRenderedNamesAreControllerRuntimes() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("gadgets")
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        queue.add("a");
        queue.done(queue.get().orElseThrow());
        queue.addRateLimited("b");

        ControllerMetrics controller = ControllerMetrics.micrometer(registry);
        controller.started("gadgets", 2);
        controller.reconciled("gadgets", "success", Duration.ofMillis(3));
        controller.error("gadgets");
        controller.terminalError("gadgets");
        controller.panic("gadgets");

        RequestMetrics.micrometer(registry).requestCompleted("GET", "10.0.0.1:6443", "200", Duration.ofMillis(5));
        LeaderMetrics.micrometer(registry).leading("gadget-operator", true);

        ReflectorMetrics reflector = ReflectorMetrics.micrometer(registry);
        reflector.listed("configmaps/a", Duration.ofMillis(20), 3);
        reflector.watchStarted("configmaps/a");
        reflector.watchEnded("configmaps/a", Duration.ofMillis(1), true);
        reflector.watchEvent("configmaps/a", "ADDED");
        reflector.resourceVersion("configmaps/a", "42");
        reflector.storeCreated("configmaps/a", () -> 3);
        reflector.processingError("configmaps/a", "index");

        ReaderMetrics.micrometer(registry).read("secrets", "get", ObjectReader.Source.API);

        ShardingMetrics sharding = ShardingMetrics.micrometer(registry);
        sharding.member("mirror", true);
        sharding.drainAcknowledged("mirror", "configmaps");
        sharding.shardObjects("mirror", "gadgets", () -> 4);
        Map<MemberState, Integer> members = new EnumMap<>(MemberState.class);
        for (MemberState state : MemberState.values()) {
            members.put(state, state == MemberState.READY ? 3 : 0);
        }
        sharding.members("mirror", members);
        sharding.assigned("mirror", "configmaps");
        sharding.moved("mirror", "configmaps");
        sharding.drainRequested("mirror", "configmaps");
        sharding.handedOver("mirror", Duration.ofMillis(40));
        sharding.pendingDrains("mirror", 2);
        sharding.unassigned("mirror", "configmaps", 1);

        String scrape = registry.scrape();
        assertThat(scrape).contains(
                "workqueue_depth{controller=\"gadgets\",name=\"gadgets\",priority=\"0\"}",
                "workqueue_depth{controller=\"gadgets\",name=\"gadgets\",priority=\"-100\"}",
                "workqueue_adds_total{controller=\"gadgets\",name=\"gadgets\"}",
                "workqueue_queue_duration_seconds_count{controller=\"gadgets\",name=\"gadgets\"}",
                "workqueue_work_duration_seconds_count{controller=\"gadgets\",name=\"gadgets\"}",
                "workqueue_unfinished_work_seconds{controller=\"gadgets\",name=\"gadgets\"}",
                "workqueue_longest_running_processor_seconds{controller=\"gadgets\",name=\"gadgets\"}",
                "workqueue_retries_total{controller=\"gadgets\",name=\"gadgets\"}",
                "controller_runtime_reconcile_total{controller=\"gadgets\",result=\"success\"}",
                "controller_runtime_reconcile_errors_total{controller=\"gadgets\"}",
                "controller_runtime_terminal_reconcile_errors_total{controller=\"gadgets\"}",
                "controller_runtime_reconcile_panics_total{controller=\"gadgets\"}",
                "controller_runtime_reconcile_time_seconds_count{controller=\"gadgets\"}",
                "controller_runtime_max_concurrent_reconciles{controller=\"gadgets\"} 2",
                "controller_runtime_active_workers{controller=\"gadgets\"}",
                "rest_client_requests_total{code=\"200\",host=\"10.0.0.1:6443\",method=\"GET\"}",
                "rest_client_request_duration_seconds_count{host=\"10.0.0.1:6443\",verb=\"GET\"}",
                "leader_election_master_status{name=\"gadget-operator\"} 1",
                "reflector_list_duration_seconds_count{name=\"configmaps/a\"}",
                "reflector_lists_total{name=\"configmaps/a\"}",
                "reflector_watches_total{name=\"configmaps/a\"}",
                "reflector_short_watches_total{name=\"configmaps/a\"}",
                "reflector_watch_duration_seconds_count{name=\"configmaps/a\"}",
                "reflector_last_resource_version{name=\"configmaps/a\"} 42",
                "watch_events_total{name=\"configmaps/a\",type=\"ADDED\"}",
                "informer_store_size{name=\"configmaps/a\"} 3",
                "informer_processing_errors_total{name=\"configmaps/a\",stage=\"index\"} 1.0",
                "reader_requests_total{resource=\"secrets\",source=\"api\",verb=\"get\"} 1.0",
                "controller_sharding_member_status{ring=\"mirror\"} 1",
                "controller_sharding_drain_acks_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_objects{controller=\"gadgets\",ring=\"mirror\"} 4",
                "controller_sharding_members{ring=\"mirror\",state=\"ready\"} 3",
                "controller_sharding_members{ring=\"mirror\",state=\"orphaned\"} 0",
                "controller_sharding_assignments_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_movements_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_drains_total{resource=\"configmaps\",ring=\"mirror\"} 1.0",
                "controller_sharding_handover_duration_seconds_count{ring=\"mirror\"} 1",
                "controller_sharding_pending_drains{ring=\"mirror\"} 2",
                "controller_sharding_unassigned_objects{resource=\"configmaps\",ring=\"mirror\"} 1");
    }

    @Test
    void reconcileErrorAndRetryCountersExistAtZeroOnceAControllerStartsAsInControllerRuntime() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        ControllerMetrics.micrometer(registry).started("quiet", 1);
        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("quiet")
                .metrics(WorkQueueMetrics.micrometer(registry)).build();

        assertThat(registry.scrape()).contains(
                "controller_runtime_reconcile_total{controller=\"quiet\",result=\"success\"} 0.0",
                "controller_runtime_reconcile_total{controller=\"quiet\",result=\"error\"} 0.0",
                "controller_runtime_reconcile_total{controller=\"quiet\",result=\"requeue\"} 0.0",
                "controller_runtime_reconcile_total{controller=\"quiet\",result=\"requeue_after\"} 0.0",
                "controller_runtime_reconcile_errors_total{controller=\"quiet\"} 0.0",
                "controller_runtime_terminal_reconcile_errors_total{controller=\"quiet\"} 0.0",
                "controller_runtime_reconcile_panics_total{controller=\"quiet\"} 0.0",
                "workqueue_retries_total{controller=\"quiet\",name=\"quiet\"} 0.0",
                "workqueue_adds_total{controller=\"quiet\",name=\"quiet\"} 0.0");
        queue.shutDown();
    }

    /**
     * controller-runtime's dashboards and alerts take quantiles with {@code histogram_quantile}
     * over {@code _bucket} series; ours have them, at controller-runtime's boundaries.
     */
    @Test
    void durationsArePublishedAsHistogramsWithControllerRuntimesBuckets() throws InterruptedException {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        RateLimitingQueue<String> queue = WorkQueue.<String>builder().name("gadgets")
                .metrics(WorkQueueMetrics.micrometer(registry)).build();
        queue.add("a");
        queue.done(queue.get().orElseThrow());
        ControllerMetrics.micrometer(registry).reconciled("gadgets", "success", Duration.ofMillis(120));
        ShardingMetrics.micrometer(registry).handedOver("mirror", Duration.ofMillis(300));

        String scrape = registry.scrape();

        List<Double> workQueueBuckets = List.of(1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0, 10.0, 100.0, 1000.0);
        assertThat(bucketBounds(scrape, "workqueue_queue_duration_seconds")).containsExactlyElementsOf(workQueueBuckets);
        assertThat(bucketBounds(scrape, "workqueue_work_duration_seconds")).containsExactlyElementsOf(workQueueBuckets);
        assertThat(bucketBounds(scrape, "controller_runtime_reconcile_time_seconds")).containsExactly(0.005, 0.01, 0.025,
                0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5,
                3.0, 3.5, 4.0, 4.5, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 15.0, 20.0, 25.0, 30.0, 40.0, 50.0, 60.0);
        // not controller-runtime's (it has none): seconds-scale handovers, 25 ms to 5 minutes
        assertThat(bucketBounds(scrape, "controller_sharding_handover_duration_seconds")).containsExactly(0.025, 0.05,
                0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0, 30.0, 60.0, 120.0, 300.0);
        assertThat(scrape).contains("# TYPE controller_runtime_reconcile_time_seconds histogram",
                "# TYPE controller_sharding_handover_duration_seconds histogram",
                "# TYPE workqueue_queue_duration_seconds histogram", "# TYPE workqueue_work_duration_seconds histogram",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"gadgets\",le=\"+Inf\"} 1");
        // cumulative: the 120 ms reconcile is below 0.15 s and not below 0.1 s
        assertThat(scrape).contains("controller_runtime_reconcile_time_seconds_bucket{controller=\"gadgets\",le=\"0.1\"} 0",
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"gadgets\",le=\"0.15\"} 1");
        queue.shutDown();
    }

    /** The finite {@code le} values of {@code histogram}'s bucket series, in the order scraped. */
    static List<Double> bucketBounds(String scrape, String histogram) {
        Matcher le = Pattern.compile("^" + histogram + "_bucket\\{[^}]*le=\"([^\"]+)\"", Pattern.MULTILINE).matcher(scrape);
        List<Double> bounds = new ArrayList<>();
        while (le.find()) {
            if (!le.group(1).equals("+Inf")) {
                bounds.add(Double.parseDouble(le.group(1)));
            }
        }
        return bounds;
    }
}

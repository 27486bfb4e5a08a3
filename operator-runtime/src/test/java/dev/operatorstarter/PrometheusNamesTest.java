package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.cache.ReaderMetrics;
import dev.operatorstarter.cache.ReflectorMetrics;
import dev.operatorstarter.client.rest.RequestMetrics;
import dev.operatorstarter.controller.ControllerMetrics;
import dev.operatorstarter.leaderelection.LeaderMetrics;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import dev.operatorstarter.workqueue.WorkQueueMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every metric name and label of DESIGN.md's table, as Micrometer's Prometheus registry renders
 * them: controller-runtime's names, so its dashboards and alerts work unchanged.
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

        String scrape = registry.scrape();
        assertThat(scrape).contains(
                "workqueue_depth{controller=\"gadgets\",name=\"gadgets\"}",
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
                "reader_requests_total{resource=\"secrets\",source=\"api\",verb=\"get\"} 1.0");
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
}

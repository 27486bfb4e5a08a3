package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The whole starter in a real application against the real API server: the {@code @Reconciler}
 * bean reconciles a custom resource, owned and watched resources trigger it, its finalizer runs
 * the cleaner, and actuator serves health, the operator endpoint and controller-runtime's metric
 * names. The application is pointed at the server by {@code @KubernetesTest} alone.
 */
@SpringBootTest(classes = WidgetOperatorApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.application.name=widget-operator",
                "management.endpoints.web.exposure.include=health,prometheus,operator",
                "management.endpoint.health.show-details=always"})
@KubernetesTest(crds = "crds/widgets.yaml")
class OperatorApplicationIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    // HTTP/1.1 as the kubelet and Prometheus speak it (no h2c upgrade), and a deadline on every call
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @Autowired
    KubernetesClient client;

    @Autowired
    WidgetReconciler reconciler;

    @LocalServerPort
    int port;

    @Test
    void aWidgetIsReconciledIntoAnOwnedConfigMapAReadyStatusAndAnEvent(TestNamespace namespace) {
        ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace(namespace.name());
        Widget created = widgets.create(Widget.named("first", "blue"));

        ConfigMap colour = await().atMost(WAIT).until(() -> configMaps(namespace).find("first-colour"), Optional::isPresent)
                .orElseThrow();
        assertThat(colour.getData()).containsEntry("colour", "blue").containsEntry("tinted", "false");
        assertThat(colour.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
            assertThat(owner.getUid()).isEqualTo(created.getMetadata().getUid());
            assertThat(owner.getController()).isTrue();
        });
        await().atMost(WAIT).until(() -> widgets.get("first").getStatus() != null
                && "Ready".equals(widgets.get("first").getStatus().get("phase")));
        assertThat(widgets.get("first").getMetadata().getFinalizers()).containsExactly(WidgetReconciler.FINALIZER);
        await().atMost(WAIT).until(() -> client.eventsV1().events().inNamespace(namespace.name()).list().items()
                .stream().map(Event::getReason).anyMatch("Reconciled"::equals));

        widgets.patch("first", dev.operatorstarter.client.rest.PatchType.MERGE, Map.of("spec", Map.of("colour", "red")));
        await().atMost(WAIT).until(() -> "red".equals(configMaps(namespace).get("first-colour").getData().get("colour")));
    }

    @Test
    void deletingTheOwnedConfigMapReconcilesTheWidgetWhichRecreatesIt(TestNamespace namespace) {
        client.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("owner", "green"));
        String firstUid = await().atMost(WAIT).until(() -> configMaps(namespace).find("owner-colour"), Optional::isPresent)
                .orElseThrow().getMetadata().getUid();

        configMaps(namespace).delete("owner-colour");

        await().atMost(WAIT).until(() -> configMaps(namespace).find("owner-colour")
                .filter(recreated -> !recreated.getMetadata().getUid().equals(firstUid)).isPresent());
    }

    @Test
    void aSecretMappedToAWidgetReconcilesIt(TestNamespace namespace) {
        client.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("tinted", "grey"));
        await().atMost(WAIT).until(() -> configMaps(namespace).find("tinted-colour").isPresent());

        client.coreV1().secrets().inNamespace(namespace.name()).create(new SecretBuilder().withNewMetadata()
                .withName("tinted").endMetadata().addToStringData("tint", "dark").build());

        await().atMost(WAIT).until(() -> "true".equals(configMaps(namespace).get("tinted-colour").getData().get("tinted")));
    }

    @Test
    void deletingAWidgetRunsTheCleanerThenTheFinalizerLetsItGo(TestNamespace namespace) {
        ResourceClient<Widget> widgets = client.resources(Widget.class).inNamespace(namespace.name());
        widgets.create(Widget.named("doomed", "black"));
        await().atMost(WAIT).until(() -> widgets.get("doomed").getMetadata().getFinalizers() != null
                && widgets.get("doomed").getMetadata().getFinalizers().contains(WidgetReconciler.FINALIZER));

        widgets.delete("doomed");

        await().atMost(WAIT).until(() -> widgets.find("doomed").isEmpty());
        // at least once: a reconcile on a cache that has not yet seen the finalizer go may clean up again
        // (FinalizingHandler's contract, as controller-runtime's); the CI run of 2026-11-28 saw it twice
        assertThat(reconciler.cleaned).contains(namespace.name() + "/doomed");
    }

    @Test
    void prometheusShowsControllerRuntimesMetricNamesAndLabels(TestNamespace namespace) throws Exception {
        client.resources(Widget.class).inNamespace(namespace.name()).create(Widget.named("measured", "white"));
        await().atMost(WAIT).until(() -> configMaps(namespace).find("measured-colour").isPresent());

        // the success counter is there (at zero) from the controller's start; the reconcile's timer comes as
        // the reconcile ends, a moment after the ConfigMap it wrote
        await().atMost(WAIT).untilAsserted(() -> {
            String scrape = get("/actuator/prometheus").body();
            assertThat(scrape).contains("controller_runtime_reconcile_total{controller=\"widget\",result=\"success\"}");
            assertThat(scrape).contains(
                    "workqueue_depth{controller=\"widget\",name=\"widget\",priority=\"0\"}",
                    "workqueue_adds_total{controller=\"widget\",name=\"widget\"}",
                    "workqueue_queue_duration_seconds_count{controller=\"widget\",name=\"widget\"}",
                    "workqueue_work_duration_seconds_count{controller=\"widget\",name=\"widget\"}",
                    "workqueue_unfinished_work_seconds{controller=\"widget\",name=\"widget\"}",
                    "workqueue_longest_running_processor_seconds{controller=\"widget\",name=\"widget\"}",
                    "workqueue_retries_total{controller=\"widget\",name=\"widget\"}",
                    "controller_runtime_reconcile_errors_total{controller=\"widget\"}",
                    "controller_runtime_terminal_reconcile_errors_total{controller=\"widget\"}",
                    "controller_runtime_reconcile_panics_total{controller=\"widget\"}",
                    "controller_runtime_reconcile_time_seconds_count{controller=\"widget\"}",
                    "controller_runtime_max_concurrent_reconciles{controller=\"widget\"} 1",
                    "controller_runtime_active_workers{controller=\"widget\"}",
                    "rest_client_requests_total{code=\"200\"",
                    "rest_client_request_duration_seconds_count{host=",
                    "leader_election_master_status{name=\"widget-operator-leader\"} 1",
                    "reflector_list_duration_seconds_count{name=\"widgets.starter.operatorstarter.dev\"}",
                    "reflector_lists_total{name=\"configmaps\"}",
                    "reflector_watches_total{name=\"secrets\"}",
                    "reflector_last_resource_version{name=\"widgets.starter.operatorstarter.dev\"}",
                    "watch_events_total{name=\"widgets.starter.operatorstarter.dev\",type=\"ADDED\"}",
                    "informer_store_size{name=\"configmaps\"}");
            assertThat(scrape).contains("reflector_short_watches_total{name=\"configmaps\"}")
                    .contains("reflector_watch_duration_seconds");
        });
    }

    @Test
    void healthAndTheOperatorEndpointReportSyncedInformersAndTheLeader() throws Exception {
        await().atMost(WAIT).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        String readiness = get("/actuator/health/readiness").body();
        assertThat(readiness).contains("\"informers\"").contains("\"synced\":true");
        HttpResponse<String> liveness = get("/actuator/health/liveness");
        assertThat(liveness.statusCode()).isEqualTo(200);
        assertThat(liveness.body()).contains("\"controllers\"");

        // the controllers start on the leader's term thread, a moment after it became the leader
        await().atMost(WAIT).untilAsserted(() -> assertThat(get("/actuator/operator").body())
                .contains("\"leader\":true").contains("\"name\":\"widget\"").contains("\"running\":true")
                .contains("\"lease\":\"default/widget-operator-leader\"")
                .contains("\"name\":\"widgets.starter.operatorstarter.dev\""));
    }

    private ResourceClient<ConfigMap> configMaps(TestNamespace namespace) {
        return client.coreV1().configMaps().inNamespace(namespace.name());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

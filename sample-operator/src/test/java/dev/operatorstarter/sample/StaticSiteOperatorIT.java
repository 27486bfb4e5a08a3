package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Conditions;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The sample operator as it is shipped, against the real API server: a StaticSite becomes an
 * owned ConfigMap, Deployment and Service (server-side applied), a status with conditions and
 * observedGeneration, Events and a site-index entry; the finalizer removes the entry on deletion;
 * the CRD's schema rejects bad sites. The local API server runs no kubelet, so the Deployment's
 * rollout is played by writing its status as the deployment controller would.
 */
@SpringBootTest(classes = SampleOperatorApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@KubernetesTest(crds = Examples.CRD)
@DirtiesContext // stops this operator before other test classes run operators of their own
class StaticSiteOperatorIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final Map<String, String> HELLO = Map.of("index.html", "<h1>Hello</h1>");

    @Autowired
    KubernetesClient client;

    @Autowired
    SampleProperties properties;

    @LocalServerPort
    int port;

    @Test
    void aSiteBecomesOwnedObjectsAProgressingStatusAnEventAndAnIndexEntry(TestNamespace namespace) {
        StaticSite created = sites(namespace).create(StaticSite.of("hello", 2, HELLO));

        ConfigMap content = await().atMost(WAIT).until(() -> configMaps(namespace).find("hello-content"),
                Optional::isPresent).orElseThrow();
        assertThat(content.getData()).isEqualTo(HELLO);
        assertOwnedAndApplied(content.getMetadata(), created);

        // The reconcile applies the content, the Deployment and the Service one after the other.
        Deployment deployment = await().atMost(WAIT).until(() -> client.appsV1().deployments()
                .inNamespace(namespace.name()).find("hello"), Optional::isPresent).orElseThrow();
        assertOwnedAndApplied(deployment.getMetadata(), created);
        assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
        assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry(SiteResources.CONTENT_HASH, SiteResources.contentHash(created));
        assertThat(deployment.getSpec().getTemplate().getSpec().getContainers()).singleElement()
                .satisfies(web -> assertThat(web.getImage()).isEqualTo(properties.siteImage()));
        assertThat(deployment.getSpec().getTemplate().getSpec().getVolumes()).singleElement()
                .satisfies(volume -> assertThat(volume.getConfigMap().getName()).isEqualTo("hello-content"));

        Service service = await().atMost(WAIT).until(() -> client.coreV1().services().inNamespace(namespace.name())
                .find("hello"), Optional::isPresent).orElseThrow();
        assertOwnedAndApplied(service.getMetadata(), created);
        assertThat(service.getSpec().getPorts()).singleElement().satisfies(port -> assertThat(port.getPort()).isEqualTo(80));

        StaticSiteStatus status = awaitStatus(namespace, "hello", s -> s.observedGeneration() != null);
        assertThat(status.observedGeneration()).isEqualTo(created.getMetadata().getGeneration());
        assertThat(status.url()).isEqualTo("http://hello." + namespace.name() + ".svc");
        assertThat(status.readyReplicas()).isZero();
        assertThat(Conditions.find(status.conditions(), StaticSiteStatus.READY)).hasValueSatisfying(ready -> {
            assertThat(ready.getStatus()).isEqualTo("False");
            assertThat(ready.getReason()).isEqualTo("RollingOut");
            assertThat(ready.getObservedGeneration()).isEqualTo(created.getMetadata().getGeneration());
        });
        assertThat(Conditions.isTrue(status.conditions(), StaticSiteStatus.PROGRESSING)).isTrue();
        assertThat(sites(namespace).get("hello").getMetadata().getFinalizers())
                .containsExactly(StaticSiteReconciler.FINALIZER);

        awaitEvent(namespace, "Applied");
        await().atMost(WAIT).until(() -> index().getData() != null
                && ("http://hello." + namespace.name() + ".svc").equals(index().getData().get(namespace.name() + "_hello")));
    }

    @Test
    void aSiteIsReadyOnceItsWebServersAreAvailable(TestNamespace namespace) {
        sites(namespace).create(StaticSite.of("rolled", 2, HELLO));
        Deployment deployment = await().atMost(WAIT)
                .until(() -> client.appsV1().deployments().inNamespace(namespace.name()).find("rolled"), Optional::isPresent)
                .orElseThrow();
        awaitStatus(namespace, "rolled", s -> s.observedGeneration() != null);

        rollOut(namespace, deployment, 2);

        StaticSiteStatus status = awaitStatus(namespace, "rolled",
                s -> Conditions.isTrue(s.conditions(), StaticSiteStatus.READY));
        assertThat(status.readyReplicas()).isEqualTo(2);
        assertThat(Conditions.find(status.conditions(), StaticSiteStatus.READY).orElseThrow().getReason())
                .isEqualTo("Available");
        assertThat(Conditions.isTrue(status.conditions(), StaticSiteStatus.PROGRESSING)).isFalse();
        awaitEvent(namespace, "Available");
    }

    @Test
    void changingTheContentRewritesTheConfigMapAndRollsTheWebServers(TestNamespace namespace) {
        StaticSite created = sites(namespace).create(StaticSite.of("edited", 1, HELLO));
        awaitStatus(namespace, "edited", s -> s.observedGeneration() != null);
        String firstHash = SiteResources.contentHash(created);

        sites(namespace).patch("edited", PatchType.MERGE,
                Map.of("spec", Map.of("content", Map.of("index.html", "<h1>Edited</h1>", "about.html", "<p>about</p>"))));

        StaticSiteStatus status = awaitStatus(namespace, "edited", s -> Long.valueOf(2).equals(s.observedGeneration()));
        assertThat(Conditions.find(status.conditions(), StaticSiteStatus.READY).orElseThrow().getObservedGeneration())
                .isEqualTo(2);
        assertThat(configMaps(namespace).get("edited-content").getData())
                .containsEntry("index.html", "<h1>Edited</h1>").containsEntry("about.html", "<p>about</p>");
        String secondHash = client.appsV1().deployments().inNamespace(namespace.name()).get("edited").getSpec()
                .getTemplate().getMetadata().getAnnotations().get(SiteResources.CONTENT_HASH);
        assertThat(secondHash).isNotEqualTo(firstHash).isEqualTo(SiteResources.contentHash(sites(namespace).get("edited")));
    }

    @Test
    void deletingASiteRemovesItsIndexEntryThenTheGarbageCollectorRemovesWhatItOwned(TestNamespace namespace) {
        sites(namespace).create(StaticSite.of("doomed", 1, HELLO));
        String key = namespace.name() + "_doomed";
        await().atMost(WAIT).until(() -> index().getData() != null && index().getData().containsKey(key));

        sites(namespace).delete("doomed");

        await().atMost(WAIT).until(() -> sites(namespace).find("doomed").isEmpty());
        assertThat(index().getData()).doesNotContainKey(key);
        await().atMost(WAIT).until(() -> configMaps(namespace).find("doomed-content").isEmpty()
                && client.appsV1().deployments().inNamespace(namespace.name()).find("doomed").isEmpty()
                && client.coreV1().services().inNamespace(namespace.name()).find("doomed").isEmpty());
    }

    @Test
    void theCrdSchemaRejectsASiteWithTooManyReplicasOrABadFileName(TestNamespace namespace) {
        ResourceClient<GenericKubernetesResource> raw = client.dynamic(
                new GroupVersionResource(StaticSite.GROUP, StaticSite.VERSION, "staticsites")).inNamespace(namespace.name());
        GenericKubernetesResource bad = new GenericKubernetesResourceBuilder()
                .withApiVersion(StaticSite.GROUP + "/" + StaticSite.VERSION).withKind("StaticSite")
                .withNewMetadata().withName("bad").endMetadata()
                .addToAdditionalProperties("spec", Map.of("replicas", 11, "content", Map.of("../etc/passwd", "x")))
                .build();

        assertThatThrownBy(() -> raw.create(bad)).isInstanceOf(ApiException.Invalid.class)
                .hasMessageContaining("spec.replicas")
                .hasMessageContaining("file names may hold only letters, digits");
    }

    @Test
    void theApplicationServesProbesAndControllerRuntimeMetrics(TestNamespace namespace) throws Exception {
        sites(namespace).create(StaticSite.of("measured", 1, HELLO));
        awaitStatus(namespace, "measured", s -> s.observedGeneration() != null);

        await().atMost(WAIT).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        String scrape = await().atMost(WAIT).until(() -> get("/actuator/prometheus").body(),
                body -> body.contains("controller_runtime_reconcile_total{controller=\"staticsite\",result=\"success\"}"));
        assertThat(scrape).contains("workqueue_depth{controller=\"staticsite\",name=\"staticsite\"}",
                "informer_store_size{name=\"staticsites.sample.operatorstarter.dev\"}",
                "leader_election_master_status{name=\"sample-operator-leader\"} 1");
        assertThat(scrape).contains(
                "controller_runtime_reconcile_time_seconds_bucket{controller=\"staticsite\",le=\"0.005\"}",
                "workqueue_queue_duration_seconds_bucket{controller=\"staticsite\",name=\"staticsite\",le=\"1.0E-8\"}",
                "workqueue_work_duration_seconds_bucket{controller=\"staticsite\",name=\"staticsite\",le=\"1000.0\"}");
        // Boot's ObservationRegistry gets the reconcile and client observations, and times them
        assertThat(scrape).contains("operator_reconcile_seconds_count{controller=\"staticsite\",error=\"none\","
                + "result=\"success\"}", "http_client_requests_seconds_count{");
    }

    @Test
    void everySeriesTheShippedDashboardQueriesIsInTheScrape(TestNamespace namespace) throws Exception {
        sites(namespace).create(StaticSite.of("charted", 1, HELLO));
        awaitStatus(namespace, "charted", s -> s.observedGeneration() != null);
        Set<String> series = Dashboard.shipped().series();
        assertThat(series).contains("controller_runtime_reconcile_time_seconds_bucket", "workqueue_queue_duration_seconds_bucket",
                "workqueue_work_duration_seconds_bucket");

        String scrape = await().atMost(WAIT).until(() -> get("/actuator/prometheus").body(),
                body -> body.contains("controller_runtime_reconcile_time_seconds_bucket{controller=\"staticsite\""));
        Set<String> scraped = scrape.lines().filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toSet());
        assertThat(series).allSatisfy(name -> assertThat(scraped).as("the scrape has %s", name).contains(name));
    }

    private void assertOwnedAndApplied(io.fabric8.kubernetes.api.model.ObjectMeta metadata, StaticSite owner) {
        assertThat(metadata.getOwnerReferences()).singleElement().satisfies(reference -> {
            assertThat(reference.getUid()).isEqualTo(owner.getMetadata().getUid());
            assertThat(reference.getKind()).isEqualTo("StaticSite");
            assertThat(reference.getController()).isTrue();
        });
        assertThat(metadata.getManagedFields()).extracting(ManagedFieldsEntry::getManager, ManagedFieldsEntry::getOperation)
                .contains(org.assertj.core.groups.Tuple.tuple(SampleOperatorApplication.NAME, "Apply"));
        assertThat(metadata.getLabels()).containsEntry(SiteResources.INSTANCE_LABEL, owner.getMetadata().getName());
    }

    /** Writes what the deployment controller and kubelets would: every replica updated and available. */
    private void rollOut(TestNamespace namespace, Deployment deployment, int replicas) {
        client.appsV1().deployments().inNamespace(namespace.name()).patchStatus(deployment.getMetadata().getName(),
                PatchType.MERGE, Map.of("status", Map.of("observedGeneration", deployment.getMetadata().getGeneration(),
                        "replicas", replicas, "updatedReplicas", replicas, "readyReplicas", replicas,
                        "availableReplicas", replicas)), PatchOptions.none());
    }

    private StaticSiteStatus awaitStatus(TestNamespace namespace, String name,
            java.util.function.Predicate<StaticSiteStatus> condition) {
        return await().atMost(WAIT).until(() -> sites(namespace).get(name).getStatus(),
                status -> status != null && condition.test(status));
    }

    private void awaitEvent(TestNamespace namespace, String reason) {
        await().atMost(WAIT).until(() -> client.eventsV1().events().inNamespace(namespace.name()).list().items()
                .stream().map(Event::getReason).anyMatch(reason::equals));
    }

    private ConfigMap index() {
        return client.coreV1().configMaps().inNamespace("default").find(properties.siteIndex().name())
                .orElse(new ConfigMap());
    }

    private ResourceClient<StaticSite> sites(TestNamespace namespace) {
        return client.resources(StaticSite.class).inNamespace(namespace.name());
    }

    private ResourceClient<ConfigMap> configMaps(TestNamespace namespace) {
        return client.coreV1().configMaps().inNamespace(namespace.name());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

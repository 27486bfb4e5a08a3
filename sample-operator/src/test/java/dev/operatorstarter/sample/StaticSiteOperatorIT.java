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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The sample operator as it is shipped, against the real API server: a StaticSite becomes an
 * owned ConfigMap, Deployment and Service (server-side applied), a status with conditions and
 * observedGeneration, Events and a site-index entry; the finalizer removes the entry on deletion;
 * the CRD's schema rejects bad sites; and the API server calls the application's webhooks
 * (registered by the application, {@code operator.webhook.register.enabled}) to convert between
 * {@code v1alpha1} and {@code v1}, to refuse a site over its namespace's replica budget and to give
 * a site its index page. The local API server runs no kubelet, so the Deployment's rollout is played
 * by writing its status as the deployment controller would.
 */
@SpringBootTest(classes = SampleOperatorApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "operator.webhook.register.enabled=true")
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

        sites(namespace).patch("edited", PatchType.MERGE, Map.of("spec", Map.of("files", SiteFile.sorted(
                Map.of("index.html", "<h1>Edited</h1>", "about.html", "<p>about</p>")))));

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
    void theCrdSchemaRejectsASiteWithTooManyReplicasOrABadFileNameInEitherVersion(TestNamespace namespace) {
        GenericKubernetesResource badV1alpha1 = site(StaticSiteV1alpha1.VERSION, "bad",
                Map.of("replicas", 11, "content", Map.of("../etc/passwd", "x")));
        assertThatThrownBy(() -> raw(namespace, StaticSiteV1alpha1.VERSION).create(badV1alpha1))
                .isInstanceOf(ApiException.Invalid.class)
                .hasMessageContaining("spec.replicas")
                .hasMessageContaining("file names may hold only letters, digits");

        GenericKubernetesResource badV1 = site(StaticSite.VERSION, "bad",
                Map.of("replicas", 11, "files", List.of(Map.of("name", "../etc/passwd", "content", "x"))));
        assertThatThrownBy(() -> raw(namespace, StaticSite.VERSION).create(badV1))
                .isInstanceOf(ApiException.Invalid.class)
                .hasMessageContaining("spec.replicas")
                .hasMessageContaining("spec.files[1].name") // [0]: the index page the mutating webhook added first
                .hasMessageContaining("../etc/passwd");
    }

    @Test
    void aSiteWrittenAsV1alpha1IsStoredAsV1ReconciledAndReadBackAsV1alpha1(TestNamespace namespace) {
        GenericKubernetesResource hello = Examples.read(Examples.HELLO_SITE, GenericKubernetesResource.class);
        assertThat(hello.getApiVersion()).as("the example stays v1alpha1").endsWith("/" + StaticSiteV1alpha1.VERSION);
        raw(namespace, StaticSiteV1alpha1.VERSION).apply(hello, PatchOptions.forceApply("kubectl"));
        @SuppressWarnings("unchecked")
        Map<String, String> content = (Map<String, String>) ((Map<String, Object>) hello.getAdditionalProperties()
                .get("spec")).get("content");

        StaticSite stored = sites(namespace).get("hello");
        assertThat(stored.getSpec().filesByName()).isEqualTo(content);
        assertThat(stored.getSpec().replicas()).isEqualTo(2);
        ConfigMap served = await().atMost(WAIT).until(() -> configMaps(namespace).find("hello-content"),
                Optional::isPresent).orElseThrow();
        assertThat(served.getData()).isEqualTo(content);
        awaitStatus(namespace, "hello", s -> s.observedGeneration() != null);

        GenericKubernetesResource asV1alpha1 = raw(namespace, StaticSiteV1alpha1.VERSION).get("hello");
        assertThat(asV1alpha1.getApiVersion()).isEqualTo(StaticSite.GROUP + "/" + StaticSiteV1alpha1.VERSION);
        assertThat(asV1alpha1.getAdditionalProperties().get("spec")).isEqualTo(Map.of("replicas", 2, "content", content));
        assertThat(asV1alpha1.getAdditionalProperties().get("status")).as("the status converts too")
                .asInstanceOf(InstanceOfAssertFactories.MAP).containsKey("observedGeneration");
    }

    @Test
    void aV1SiteReadAndUpdatedAsV1alpha1KeepsItsFileOrder(TestNamespace namespace) {
        List<SiteFile> files = List.of(new SiteFile("index.html", "<h1>i</h1>"), new SiteFile("b.html", "b"),
                new SiteFile("a.html", "a"));
        StaticSite site = StaticSite.of("ordered", 1, Map.of());
        site.setSpec(new StaticSiteSpec(files, 1));
        sites(namespace).create(site);

        GenericKubernetesResource asV1alpha1 = raw(namespace, StaticSiteV1alpha1.VERSION).get("ordered");
        assertThat(asV1alpha1.getMetadata().getAnnotations())
                .containsEntry(StaticSiteConverter.FILE_ORDER, "index.html,b.html,a.html");
        raw(namespace, StaticSiteV1alpha1.VERSION).patch("ordered", PatchType.MERGE, Map.of("spec", Map.of("replicas", 3)));

        StaticSite updated = sites(namespace).get("ordered");
        assertThat(updated.getSpec().replicas()).isEqualTo(3);
        assertThat(updated.getSpec().files()).isEqualTo(files);
        assertThat(updated.getMetadata().getAnnotations()).as("the conversion's annotation stays out of v1")
                .doesNotContainKey(StaticSiteConverter.FILE_ORDER);
    }

    @Test
    void aSiteOverItsNamespacesReplicaBudgetIsRefusedAndScalingDownIsNot(TestNamespace namespace) {
        sites(namespace).create(StaticSite.of("big", 10, HELLO));
        sites(namespace).create(StaticSite.of("bigger", 10, HELLO));
        // the webhook reads the operator's cache: wait until both are in it
        await().atMost(WAIT).until(() -> sites(namespace).list().items().stream().allMatch(s -> s.getStatus() != null));

        assertThatThrownBy(() -> sites(namespace).create(StaticSite.of("one-more", 1, HELLO)))
                .isInstanceOf(ApiException.Forbidden.class)
                .hasMessageContaining("denied the request")
                .hasMessageContaining("the StaticSites of namespace " + namespace.name() + " may ask for 20")
                .hasMessageContaining("the 2 others ask for 20,")
                .hasMessageContaining("at most 0, not 1");
        assertThatThrownBy(() -> sites(namespace).patch("big", PatchType.MERGE, Map.of("spec", Map.of("replicas", 11))))
                .as("the schema refuses first").isInstanceOf(ApiException.Invalid.class);

        sites(namespace).patch("bigger", PatchType.MERGE, Map.of("spec", Map.of("replicas", 9)));

        StaticSite admitted = await().atMost(WAIT).ignoreException(ApiException.Forbidden.class)
                .until(() -> sites(namespace).create(StaticSite.of("one-more", 1, HELLO)), created -> true);
        assertThat(admitted.getSpec().replicas()).isEqualTo(1);
    }

    @Test
    void aV1alpha1WriteGoesThroughTheV1WebhooksConverted(TestNamespace namespace) {
        sites(namespace).create(StaticSite.of("big", 10, HELLO));
        sites(namespace).create(StaticSite.of("bigger", 10, HELLO));
        await().atMost(WAIT).until(() -> sites(namespace).list().items().stream().allMatch(s -> s.getStatus() != null));

        assertThatThrownBy(() -> raw(namespace, StaticSiteV1alpha1.VERSION).create(site(StaticSiteV1alpha1.VERSION,
                "old-style", Map.of("replicas", 1, "content", Map.of("index.html", "x")))))
                .as("the budget holds for v1alpha1 too").isInstanceOf(ApiException.Forbidden.class)
                .hasMessageContaining("at most 0, not 1");

        sites(namespace).patch("bigger", PatchType.MERGE, Map.of("spec", Map.of("replicas", 0)));
        GenericKubernetesResource created = await().atMost(WAIT).ignoreException(ApiException.Forbidden.class)
                .until(() -> raw(namespace, StaticSiteV1alpha1.VERSION).create(site(StaticSiteV1alpha1.VERSION,
                        "old-style", Map.of("replicas", 1, "content", Map.of("b.html", "b", "a.html", "a")))), r -> true);
        @SuppressWarnings("unchecked")
        Map<String, String> content = (Map<String, String>) ((Map<String, Object>) created.getAdditionalProperties()
                .get("spec")).get("content");
        assertThat(content).as("the defaulter's page, converted back").containsKeys("index.html", "a.html", "b.html");
        assertThat(sites(namespace).get("old-style").getSpec().files()).extracting(SiteFile::name)
                .containsExactly("index.html", "a.html", "b.html");
    }

    @Test
    void aSiteWithoutAnIndexPageGetsOneListingItsFiles(TestNamespace namespace) {
        StaticSite created = sites(namespace).create(StaticSite.of("listed", 1, Map.of("about.html", "<p>about</p>")));

        assertThat(created.getSpec().files()).extracting(SiteFile::name).containsExactly("index.html", "about.html");
        String index = created.getSpec().filesByName().get("index.html");
        assertThat(index).startsWith(StaticSiteDefaulter.MARKER).contains("<a href=\"about.html\">");
        ConfigMap served = await().atMost(WAIT).until(() -> configMaps(namespace).find("listed-content"),
                Optional::isPresent).orElseThrow();
        assertThat(served.getData()).containsEntry("index.html", index);
    }

    @Test
    void theApplicationServesProbesAndControllerRuntimeMetrics(TestNamespace namespace) throws Exception {
        sites(namespace).create(StaticSite.of("measured", 1, HELLO));
        awaitStatus(namespace, "measured", s -> s.observedGeneration() != null);

        await().atMost(WAIT).until(() -> get("/actuator/health/readiness").statusCode() == 200);
        assertThat(get("/actuator/health/liveness").statusCode()).isEqualTo(200);
        // the success counter is there (at zero) from the controller's start; the reconcile's timer and
        // observation come as it ends, a moment after the status it wrote
        await().atMost(WAIT).untilAsserted(() -> {
            String scrape = get("/actuator/prometheus").body();
            assertThat(scrape).contains(
                    "controller_runtime_reconcile_total{controller=\"staticsite\",result=\"success\"}");
            assertThat(scrape).contains("workqueue_depth{controller=\"staticsite\",name=\"staticsite\",priority=\"0\"}",
                    "informer_store_size{name=\"staticsites.sample.operatorstarter.dev\"}",
                    "leader_election_master_status{name=\"sample-operator-leader\"} 1");
            assertThat(scrape).contains(
                    "controller_runtime_reconcile_time_seconds_bucket{controller=\"staticsite\",le=\"0.005\"}",
                    "workqueue_queue_duration_seconds_bucket{controller=\"staticsite\",name=\"staticsite\",le=\"1.0E-8\"}",
                    "workqueue_work_duration_seconds_bucket{controller=\"staticsite\",name=\"staticsite\",le=\"1000.0\"}");
            // Boot's ObservationRegistry gets the reconcile and client observations, and times them
            assertThat(scrape).contains("operator_reconcile_seconds_count{controller=\"staticsite\",error=\"none\","
                    + "result=\"success\"}", "http_client_requests_seconds_count{");
        });
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

    /** Writes what the deployment controller and kubelets would: every replica updated and available, its Pods Ready. */
    private void rollOut(TestNamespace namespace, Deployment deployment, int replicas) {
        WebServerPods.runReady(client, namespace.name(), deployment, replicas);
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

    private ResourceClient<GenericKubernetesResource> raw(TestNamespace namespace, String version) {
        return client.dynamic(new GroupVersionResource(StaticSite.GROUP, version, "staticsites")).inNamespace(namespace.name());
    }

    private static GenericKubernetesResource site(String version, String name, Map<String, Object> spec) {
        return new GenericKubernetesResourceBuilder().withApiVersion(StaticSite.GROUP + "/" + version)
                .withKind(StaticSite.KIND).withNewMetadata().withName(name).endMetadata()
                .addToAdditionalProperties("spec", spec).build();
    }

    private ResourceClient<StaticSite> sites(TestNamespace namespace) {
        return client.resources(StaticSite.class).inNamespace(namespace.name());
    }

    private ResourceClient<ConfigMap> configMaps(TestNamespace namespace) {
        return client.coreV1().configMaps().inNamespace(namespace.name());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build()
                .send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.RuleWithOperationsBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Webhooks served by a whole application and called by the real API server at a loopback URL: the
 * webhook configurations and the two-version CRD point at {@code https://127.0.0.1:<port>}, the
 * application generates its certificate and injects the CA into them. Every webhook here matches
 * only objects labelled with this run's id, so other tests on the shared server are not affected.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
class WebhooksIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    /** Only objects with this label go through this class's webhooks. */
    private static final Map<String, String> ENROLLED = Map.of("webhooks.operatorstarter.dev/it", RUN);
    private static final String VALIDATING = "widgets-validate-" + RUN;
    private static final String MUTATING = "widgets-default-" + RUN;
    private static final String GADGETS = "gadgets.webhooks.operatorstarter.dev";
    // HTTP/1.1 as the kubelet and Prometheus speak it (no h2c upgrade), and a deadline on every call
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private static KubernetesClient admin;
    private static ConfigurableApplicationContext application;
    private static int webhookPort;

    @BeforeAll
    static void startTheApplicationAndPointTheApiServerAtIt(ClusterConnection connection) throws IOException {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        application = start(connection, "server.port=0", "spring.application.name=webhooks-it",
                "management.endpoints.web.exposure.include=health,prometheus",
                "management.endpoint.health.show-details=always",
                "operator.webhook.ca-injection.validating-webhook-configurations=" + VALIDATING,
                "operator.webhook.ca-injection.mutating-webhook-configurations=" + MUTATING,
                "operator.webhook.ca-injection.custom-resource-definitions=" + GADGETS,
                "operator.webhook.ca-injection.check-period=500ms");
        webhookPort = application.getBean(WebhookServer.class).port();
        // created after the application started (their URL names its port), without a caBundle: it injects it
        String[] configurations = resource("/webhooks/widget-webhooks.yaml", webhookPort).split("\n---\n");
        admin.resources(ValidatingWebhookConfiguration.class).create(YAML.readValue(configurations[0],
                ValidatingWebhookConfiguration.class));
        admin.resources(MutatingWebhookConfiguration.class).create(YAML.readValue(configurations[1],
                MutatingWebhookConfiguration.class));
        admin.apiextensionsV1().customResourceDefinitions().create(YAML.readValue(
                resource("/webhooks/gadgets-crd.yaml", webhookPort), CustomResourceDefinition.class));
        await().atMost(WAIT).until(() -> established(admin, GADGETS));
        // ready once the CA is injected everywhere; the API server then needs a moment to see the change
        await().atMost(WAIT).until(() -> get("/actuator/health/readiness").statusCode() == 200);
    }

    @AfterAll
    static void stop() {
        if (application != null) {
            application.close();
        }
        admin.resources(ValidatingWebhookConfiguration.class).find(VALIDATING)
                .ifPresent(found -> admin.resources(ValidatingWebhookConfiguration.class).delete(VALIDATING));
        admin.resources(MutatingWebhookConfiguration.class).find(MUTATING)
                .ifPresent(found -> admin.resources(MutatingWebhookConfiguration.class).delete(MUTATING));
        admin.apiextensionsV1().customResourceDefinitions().find(GADGETS)
                .ifPresent(found -> admin.apiextensionsV1().customResourceDefinitions().delete(GADGETS));
        admin.close();
    }

    @Test
    void anInvalidWidgetIsRefusedWithTheValidatorsMessage(TestNamespace namespace) {
        ResourceClient<Widget> widgets = admin.resources(Widget.class).inNamespace(namespace.name());

        ApiException refused = await().atMost(WAIT).until(() -> catchThrowableOfType(ApiException.class,
                () -> widgets.create(enrolled(Widget.named("ghost", "invisible")))), WebhooksIT::deniedByUs);

        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.getMessage()).contains("admission webhook \"widgets.validate.webhooks.operatorstarter.dev\" "
                + "denied the request: a widget cannot be invisible (CREATE by ");
        assertThat(widgets.find("ghost")).isEmpty();
        // a valid one passes, and an update to an invalid colour is refused too
        widgets.create(enrolled(Widget.named("solid", "blue")));
        Widget solid = widgets.get("solid");
        solid.getSpec().put("colour", "invisible");
        assertThat(catchThrowableOfType(ApiException.class, () -> widgets.update(solid)).getMessage())
                .contains("a widget cannot be invisible (UPDATE by ");
    }

    @Test
    void aWidgetWithoutAColourIsStoredWithTheDefaultThroughTheMutatingWebhooksPatch(TestNamespace namespace) {
        ResourceClient<Widget> widgets = admin.resources(Widget.class).inNamespace(namespace.name());
        Widget plain = enrolled(Widget.named("plain", "ignored"));
        plain.getSpec().remove("colour");

        Widget created = widgets.create(plain);

        assertThat(created.getSpec()).containsEntry("colour", "grey");
        assertThat(widgets.get("plain").getSpec()).containsEntry("colour", "grey");
        assertThat(widgets.get("plain").getMetadata().getLabels())
                .containsEntry(WidgetDefaulter.DEFAULTED, "colour").containsAllEntriesOf(ENROLLED);
        // a widget with its own colour is left alone (and went through the validator after the patch)
        assertThat(widgets.create(enrolled(Widget.named("green", "green"))).getSpec()).containsEntry("colour", "green");
        assertThat(widgets.get("green").getMetadata().getLabels()).doesNotContainKey(WidgetDefaulter.DEFAULTED);
    }

    @Test
    void aGadgetWrittenAsV1alpha1ReadsBackAsV1AndTheOtherWayRoundThroughTheConversionWebhook(TestNamespace namespace) {
        ResourceClient<GadgetV1alpha1> old = admin.resources(GadgetV1alpha1.class).inNamespace(namespace.name());
        ResourceClient<GadgetV1> current = admin.resources(GadgetV1.class).inNamespace(namespace.name());

        old.create(GadgetV1alpha1.coloured("first", "red"));
        GadgetV1 firstAsV1 = current.get("first");
        current.create(GadgetV1.painted("second", "blue", "gloss"));
        GadgetV1alpha1 secondAsV1alpha1 = old.get("second");

        assertThat(firstAsV1.getApiVersion()).isEqualTo("webhooks.operatorstarter.dev/v1");
        assertThat(firstAsV1.getSpec().paint()).isEqualTo(new GadgetV1.Paint("red", "matte"));
        assertThat(secondAsV1alpha1.getApiVersion()).isEqualTo("webhooks.operatorstarter.dev/v1alpha1");
        assertThat(secondAsV1alpha1.getSpec().colour()).isEqualTo("blue");
        assertThat(secondAsV1alpha1.getMetadata().getAnnotations()).containsEntry(GadgetConverter.FINISH, "gloss");
        // written back in the old version, the finish it cannot express survives through the annotation
        secondAsV1alpha1.setSpec(new GadgetV1alpha1.Spec("green"));
        old.update(secondAsV1alpha1);
        GadgetV1 secondAsV1 = current.get("second");
        assertThat(secondAsV1.getSpec().paint()).isEqualTo(new GadgetV1.Paint("green", "gloss"));
        assertThat(secondAsV1.getMetadata().getAnnotations()).doesNotContainKey(GadgetConverter.FINISH);
        assertThat(old.list().items()).extracting(gadget -> gadget.getSpec().colour()).containsExactlyInAnyOrder("red",
                "green");
    }

    @Test
    void readinessIncludesTheWebhookServerAndPrometheusShowsControllerRuntimesWebhookMetrics(TestNamespace namespace)
            throws Exception {
        admin.resources(Widget.class).inNamespace(namespace.name()).create(enrolled(Widget.named("counted", "blue")));

        String readiness = get("/actuator/health/readiness").body();
        String scrape = await().atMost(WAIT).until(() -> get("/actuator/prometheus").body(), body -> body.contains(
                "controller_runtime_webhook_requests_total{code=\"200\",webhook=\"/validate-widgets\"}"));

        JsonNode webhooks = JsonMapper.builder().build().readTree(readiness).path("components").path("webhooks");
        assertThat(webhooks.path("status").asString()).isEqualTo("UP");
        assertThat(webhooks.path("details").path("port").asInt()).isEqualTo(webhookPort);
        assertThat(scrape).contains(
                "controller_runtime_webhook_requests_total{code=\"200\",webhook=\"/default-widgets\"}",
                "controller_runtime_webhook_latency_seconds_count{webhook=\"/validate-widgets\"}",
                "controller_runtime_webhook_requests_in_flight{webhook=\"/convert-gadgets\"} 0");
    }

    @Test
    void aConfigurationReappliedWithoutTheCaBundleGetsItBack() {
        ResourceClient<ValidatingWebhookConfiguration> configurations = admin.resources(
                ValidatingWebhookConfiguration.class);
        String injected = configurations.get(VALIDATING).getWebhooks().get(0).getClientConfig().getCaBundle();
        assertThat(new String(java.util.Base64.getDecoder().decode(injected), StandardCharsets.US_ASCII))
                .isEqualTo(application.getBean(WebhookServer.class).caCertificatePem());

        dev.operatorstarter.client.RetryOnConflict.run(() -> {
            ValidatingWebhookConfiguration current = configurations.get(VALIDATING);
            current.getWebhooks().get(0).getClientConfig().setCaBundle(null);
            return configurations.update(current);
        });

        await().atMost(WAIT).until(() -> injected.equals(
                configurations.get(VALIDATING).getWebhooks().get(0).getClientConfig().getCaBundle()));
    }

    @Test
    void aCrdWhoseConversionIsNotAWebhookIsReportedNotForced(ClusterConnection connection) {
        try (ConfigurableApplicationContext other = start(connection,
                "operator.webhook.ca-injection.custom-resource-definitions=widgets.starter.operatorstarter.dev")) {
            WebhookServer server = other.getBean(WebhookServer.class);

            await().atMost(WAIT).until(() -> !server.status().caInjectionPending().isEmpty()
                    && server.status().caInjectionPending().get(0).contains("conversion strategy"));

            assertThat(server.status().caInjectionPending()).containsExactly("CustomResourceDefinition "
                    + "widgets.starter.operatorstarter.dev has conversion strategy None, not Webhook with a webhook "
                    + "stanza: there is no caBundle to set");
            assertThat(server.status().ready(java.time.Instant.now())).isFalse();
            assertThat(admin.apiextensionsV1().customResourceDefinitions().get("widgets.starter.operatorstarter.dev")
                    .getSpec().getConversion().getStrategy()).isEqualTo("None");
        }
    }

    /**
     * A second application serves a ConfigMap webhook under two failure policies. While it runs,
     * both admit a good ConfigMap and both refuse a bad one (a denial is never ignored); once it is
     * down, {@code Fail} refuses every write and {@code Ignore} lets it through.
     */
    @Test
    void aWebhookThatIsDownRefusesWritesUnderFailAndLetsThemThroughUnderIgnore(ClusterConnection connection,
            TestNamespace namespace) {
        String name = "configmaps-down-" + RUN;
        Map<String, String> fail = Map.of("webhooks.operatorstarter.dev/policy", "fail-" + RUN);
        Map<String, String> ignore = Map.of("webhooks.operatorstarter.dev/policy", "ignore-" + RUN);
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(namespace.name());
        ConfigurableApplicationContext second = start(connection,
                "operator.webhook.ca-injection.validating-webhook-configurations=" + name);
        try {
            int port = second.getBean(WebhookServer.class).port();
            RuleWithOperations rule = new RuleWithOperationsBuilder().withApiGroups("").withApiVersions("v1")
                    .withResources("configmaps").withOperations("CREATE").build();
            admin.resources(ValidatingWebhookConfiguration.class).create(new ValidatingWebhookConfigurationBuilder()
                    .withNewMetadata().withName(name).endMetadata()
                    .withWebhooks(validating("fail.configmaps.webhooks.operatorstarter.dev", port, "/validate-configmaps",
                                    "Fail", rule, fail),
                            validating("ignore.configmaps.webhooks.operatorstarter.dev", port, "/validate-configmaps",
                                    "Ignore", rule, ignore))
                    .build());

            // up: the webhook decides, whatever the policy
            ApiException denied = await().atMost(WAIT).until(() -> catchThrowableOfType(ApiException.class,
                    () -> configMaps.create(configMap("bad-ignored", ignore, "forbidden"))), WebhooksIT::deniedByUs);
            assertThat(denied.getMessage()).contains("denied the request: the key 'forbidden' is forbidden");
            configMaps.create(configMap("good-fail", fail, "allowed"));
            configMaps.create(configMap("good-ignore", ignore, "allowed"));

            second.close();

            ApiException refused = catchThrowableOfType(ApiException.class,
                    () -> configMaps.create(configMap("down-fail", fail, "allowed")));
            assertThat(refused).isNotNull();
            assertThat(refused.getMessage()).contains("failed calling webhook \"fail.configmaps.webhooks.operatorstarter.dev\"");
            assertThat(configMaps.find("down-fail")).isEmpty();
            configMaps.create(configMap("down-ignore", ignore, "forbidden"));
            assertThat(configMaps.get("down-ignore").getData()).containsKey("forbidden");
        } finally {
            second.close();
            admin.resources(ValidatingWebhookConfiguration.class).find(name)
                    .ifPresent(found -> admin.resources(ValidatingWebhookConfiguration.class).delete(name));
        }
    }

    static ConfigurableApplicationContext start(ClusterConnection connection, String... properties) {
        boolean web = java.util.Arrays.stream(properties).anyMatch(property -> property.startsWith("server.port"));
        return new SpringApplicationBuilder(WebhookApplication.class)
                .properties("operator.client.kubeconfig=" + connection.kubeconfig(),
                        "operator.leader-election.enabled=false", "operator.webhook.enabled=true",
                        "operator.webhook.port=0", "operator.webhook.address=127.0.0.1",
                        "operator.webhook.certificate.dns-names=localhost",
                        "operator.webhook.certificate.ip-addresses=127.0.0.1",
                        "operator.webhook.ca-injection.retry-period=200ms")
                .properties(properties)
                .web(web ? WebApplicationType.REACTIVE : WebApplicationType.NONE).run();
    }

    /** A denial by one of our handlers, rather than a call that failed while the CA is not trusted yet. */
    static boolean deniedByUs(ApiException failure) {
        return failure != null && failure.getMessage().contains("denied the request");
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> T enrolled(T object) {
        object.getMetadata().setLabels(new java.util.HashMap<>(ENROLLED));
        return object;
    }

    static ConfigMap configMap(String name, Map<String, String> labels, String key) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .addToData(key, "value").build();
    }

    static ValidatingWebhook validating(String name, int port, String path, String failurePolicy,
            RuleWithOperations rule, Map<String, String> objectLabels) {
        return new ValidatingWebhookBuilder().withName(name)
                .withNewClientConfig().withUrl("https://127.0.0.1:" + port + path).endClientConfig()
                .withRules(rule).withNewObjectSelector().withMatchLabels(objectLabels).endObjectSelector()
                .withFailurePolicy(failurePolicy).withSideEffects("None").withAdmissionReviewVersions("v1")
                .withTimeoutSeconds(5).build();
    }

    /** A test resource with this run's webhook port and id filled in. */
    static String resource(String name, int port) throws IOException {
        try (InputStream in = WebhooksIT.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("WEBHOOK_PORT", Integer.toString(port))
                    .replace("RUN", RUN);
        }
    }

    static boolean established(KubernetesClient client, String crd) {
        return client.apiextensionsV1().customResourceDefinitions().find(crd)
                .map(found -> found.getStatus() != null && found.getStatus().getConditions() != null
                        && found.getStatus().getConditions().stream()
                                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())))
                .orElse(false);
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        String port = application.getEnvironment().getProperty("local.server.port");
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

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
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.ServiceReference;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookConversion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * {@code operator.webhook.register.enabled}: {@link WebhooksIT}'s application with no webhook
 * configuration written by the test. It registers its handlers and points the two-version gadgets
 * CRD (installed here converted through a Service, as a chart installs it) at its converter; the real API server then
 * refuses, defaults and converts through it; once the application closes, its configurations are
 * gone and writes it would have refused succeed. The webhooks match only objects labelled with
 * this run's id ({@code operator.webhook.register.object-selector}), as the API server is shared.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WebhookRegistrationIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final String LABEL = "webhooks.operatorstarter.dev/it";
    private static final String NAME = "registration-it-" + RUN;
    private static final String GADGETS = "gadgets.webhooks.operatorstarter.dev";

    private static KubernetesClient admin;
    private static ConfigurableApplicationContext application;

    @BeforeAll
    static void installTheGadgetsWithoutConversionAndStartTheApplication(ClusterConnection connection)
            throws IOException {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        ResourceClient<CustomResourceDefinition> crds = admin.apiextensionsV1().customResourceDefinitions();
        await().atMost(WAIT).until(() -> crds.find(GADGETS).isEmpty()); // WebhooksIT's may still be going
        CustomResourceDefinition gadgets;
        try (InputStream in = WebhooksIT.class.getResourceAsStream("/webhooks/gadgets-crd.yaml")) {
            gadgets = YAMLMapper.builder().build().readValue(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    CustomResourceDefinition.class);
        }
        // As a chart installs it: converted through a Service. The application points it at its
        // converter instead, which must remove the Service (a client config holds a url or a service).
        ServiceReference service = new ServiceReference("old-webhook", "default",
                        "/convert", 443);
        gadgets.getSpec().getConversion().getWebhook().setClientConfig(
                new WebhookClientConfig(null, service, null));
        crds.create(gadgets);
        await().atMost(WAIT).until(() -> crds.get(GADGETS).getStatus() != null && crds.get(GADGETS).getStatus()
                .getConditions().stream().anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus())));

        application = new SpringApplicationBuilder(WebhookApplication.class)
                .properties("operator.client.kubeconfig=" + connection.kubeconfig(),
                        "operator.leader-election.enabled=false", "operator.webhook.enabled=true",
                        "operator.webhook.port=0", "operator.webhook.address=127.0.0.1",
                        "operator.webhook.register.enabled=true", "operator.webhook.register.name=" + NAME,
                        "operator.webhook.register.object-selector[" + LABEL + "]=" + RUN)
                .web(WebApplicationType.NONE).run();
    }

    @AfterAll
    static void removeTheGadgets() {
        if (application != null) {
            application.close();
        }
        ResourceClient<CustomResourceDefinition> crds = admin.apiextensionsV1().customResourceDefinitions();
        crds.find(GADGETS).ifPresent(found -> crds.delete(GADGETS));
        await().atMost(WAIT).until(() -> crds.find(GADGETS).isEmpty());
        admin.close();
    }

    @Test
    @Order(1)
    void onceStartedTheWebhooksAreRegisteredAtTheServersPortWithItsCaAndTheHealthIsUp() {
        WebhookServer server = application.getBean(WebhookServer.class);
        ValidatingWebhookConfiguration validating = admin.resources(ValidatingWebhookConfiguration.class).get(NAME);
        MutatingWebhookConfiguration mutating = admin.resources(MutatingWebhookConfiguration.class).get(NAME);
        Health health = application.getBean("webhooksHealthIndicator", HealthIndicator.class).health();

        assertThat(health.getStatus()).as("registered before the application reported it started").isEqualTo(Status.UP);
        assertThat(health.getDetails()).doesNotContainKey("registrationPending");
        assertThat(validating.getWebhooks()).extracting(ValidatingWebhook::getName).containsExactlyInAnyOrder(
                "widgetvalidator.webhooks.operatorstarter.dev", "configmapguard.webhooks.operatorstarter.dev");
        ValidatingWebhook widgets = validating.getWebhooks().stream()
                .filter(webhook -> webhook.getName().startsWith("widgetvalidator")).findFirst().orElseThrow();
        assertThat(widgets.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:" + server.port() + "/validate-widgets");
        assertThat(new String(Base64.getDecoder().decode(widgets.getClientConfig().getCaBundle()), StandardCharsets.US_ASCII))
                .isEqualTo(server.caCertificatePem());
        assertThat(widgets.getRules()).singleElement().satisfies(rule -> {
            assertThat(rule.getApiGroups()).containsExactly("starter.operatorstarter.dev");
            assertThat(rule.getApiVersions()).containsExactly("v1");
            assertThat(rule.getResources()).containsExactly("widgets");
            assertThat(rule.getOperations()).containsExactly("CREATE", "UPDATE");
            assertThat(rule.getScope()).isEqualTo("Namespaced");
        });
        assertThat(widgets.getFailurePolicy()).isEqualTo("Fail");
        assertThat(widgets.getTimeoutSeconds()).isEqualTo(10);
        assertThat(widgets.getSideEffects()).isEqualTo("None");
        assertThat(widgets.getMatchPolicy()).as("other versions come converted").isEqualTo("Equivalent");
        assertThat(widgets.getNamespaceSelector().getMatchLabels()).isNullOrEmpty();
        assertThat(widgets.getObjectSelector().getMatchLabels()).containsExactly(Map.entry(LABEL, RUN));
        assertThat(validating.getMetadata().getManagedFields()).extracting(field -> field.getManager())
                .contains(WebhookRegistration.FIELD_MANAGER);
        assertThat(mutating.getWebhooks()).singleElement().satisfies(webhook -> assertThat(webhook.getClientConfig()
                .getUrl()).isEqualTo("https://127.0.0.1:" + server.port() + "/default-widgets"));
        WebhookConversion conversion = admin.apiextensionsV1().customResourceDefinitions().get(GADGETS).getSpec()
                .getConversion().getWebhook();
        assertThat(conversion.getClientConfig().getUrl()).isEqualTo("https://127.0.0.1:" + server.port()
                + "/convert-gadgets");
        assertThat(conversion.getClientConfig().getService()).as("the chart's Service, replaced").isNull();
        assertThat(conversion.getConversionReviewVersions()).containsExactly("v1");
    }

    @Test
    @Order(2)
    void anInvalidWidgetIsRefusedWithTheValidatorsMessageAndAMissingColourIsDefaulted(TestNamespace namespace) {
        ResourceClient<Widget> widgets = admin.resources(Widget.class).inNamespace(namespace.name());

        ApiException refused = await().atMost(WAIT).until(() -> catchThrowableOfType(ApiException.class,
                () -> widgets.create(enrolled(Widget.named("ghost", "invisible")))),
                failure -> failure != null && failure.getMessage().contains("denied the request"));
        // the API server follows the mutating configuration on its own, written after the validating one: until it
        // calls the defaulter, a widget without a colour is stored as it is (so each attempt has a name of its own)
        AtomicInteger attempts = new AtomicInteger();
        Widget created = await().atMost(WAIT).until(() -> {
            Widget plain = enrolled(Widget.named("plain-" + attempts.incrementAndGet(), "ignored"));
            plain.getSpec().remove("colour");
            return widgets.create(plain);
        }, widget -> widget.getSpec().containsKey("colour"));

        assertThat(refused.code()).isEqualTo(403);
        assertThat(refused.getMessage()).contains("admission webhook \"widgetvalidator.webhooks.operatorstarter.dev\" "
                + "denied the request: a widget cannot be invisible (CREATE by ");
        assertThat(created.getSpec()).containsEntry("colour", "grey");
        assertThat(created.getMetadata().getLabels()).containsEntry(WidgetDefaulter.DEFAULTED, "colour");
    }

    @Test
    @Order(3)
    void aGadgetConvertsBothWaysThroughTheRegisteredConversion(TestNamespace namespace) {
        ResourceClient<GadgetV1alpha1> old = admin.resources(GadgetV1alpha1.class).inNamespace(namespace.name());
        ResourceClient<GadgetV1> current = admin.resources(GadgetV1.class).inNamespace(namespace.name());

        // the API server follows the CRD's new conversion a moment after the patch
        await().atMost(WAIT).ignoreExceptions().until(() -> old.create(GadgetV1alpha1.coloured("first", "red")) != null);
        GadgetV1 firstAsV1 = current.get("first");
        current.create(GadgetV1.painted("second", "blue", "gloss"));
        GadgetV1alpha1 secondAsV1alpha1 = old.get("second");

        assertThat(firstAsV1.getSpec().paint()).isEqualTo(new GadgetV1.Paint("red", "matte"));
        assertThat(secondAsV1alpha1.getSpec().colour()).isEqualTo("blue");
        assertThat(secondAsV1alpha1.getMetadata().getAnnotations()).containsEntry(GadgetConverter.FINISH, "gloss");
    }

    @Test
    @Order(4)
    void onceTheApplicationClosesItsConfigurationsAreGoneAndWritesSucceedAgain(TestNamespace namespace) {
        ResourceClient<Widget> widgets = admin.resources(Widget.class).inNamespace(namespace.name());

        application.close();

        assertThat(admin.resources(ValidatingWebhookConfiguration.class).find(NAME)).isEmpty();
        assertThat(admin.resources(MutatingWebhookConfiguration.class).find(NAME)).isEmpty();
        // no webhook is called any more: an invisible widget, refused while the application ran, is stored
        await().atMost(WAIT).ignoreExceptions().until(() -> widgets.create(enrolled(Widget.named("ghost", "invisible")))
                != null);
        assertThat(widgets.get("ghost").getSpec()).containsEntry("colour", "invisible");
        assertThat(admin.apiextensionsV1().customResourceDefinitions().get(GADGETS).getSpec().getConversion()
                .getStrategy()).as("CRDs are left as they are").isEqualTo("Webhook");
    }

    private static <T extends HasMetadata> T enrolled(T object) {
        object.getMetadata().setLabels(new HashMap<>(Map.of(LABEL, RUN)));
        return object;
    }
}

package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.sample.Chart.Manifests;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chart's webhook objects on the real API server: the webhook configurations, the webhook
 * Service and the CRD with its conversion stanza, as rendered, pass the API server's validation
 * (applied server-side as a dry run, since the CRD and admission webhooks are cluster-wide and the
 * other tests of this JVM use StaticSites), and in {@code generated} mode the chart's service
 * account may read and write exactly the objects whose caBundle the operator injects, and no
 * other, and the chart's admission policies let it change only their caBundle. cert-manager is not
 * installed here, so its Issuer and Certificate are not applied.
 */
@KubernetesTest(crds = Examples.CRD)
class ChartWebhooksIT {

    private static final Set<String> CERT_MANAGER_KINDS = Set.of("Issuer", "Certificate");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final PatchOptions DRY_RUN = new PatchOptions("chart-webhooks-it", true, true);

    private static KubernetesClient admin;
    private final Deque<AutoCloseable> cleanUp = new ArrayDeque<>(); // closed last first

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    @AfterEach
    void cleanUp() throws Exception {
        while (!cleanUp.isEmpty()) {
            cleanUp.pop().close();
        }
    }

    @Test
    void theApiServerAcceptsEveryObjectTheChartRendersWithWebhooksInEitherMode(TestNamespace namespace) {
        for (String mode : List.of("certManager", "generated")) {
            Manifests chart = Chart.render(namespace.name(), namespace.name(), Map.of("webhooks.enabled", true,
                    "webhooks.certificates.mode", mode, "webhooks.failurePolicy", "Ignore", "webhooks.timeoutSeconds", 7,
                    "replicaCount", 2, "networkPolicy.enabled", true, "networkPolicy.apiServerCidrs[0]", "10.0.0.0/24",
                    "networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name",
                    "monitoring"));
            Map<String, JsonNode> accepted = new LinkedHashMap<>();
            for (JsonNode object : chart.documents()) {
                String kind = object.path("kind").asString();
                if (!CERT_MANAGER_KINDS.contains(kind)) {
                    accepted.put(kind + " " + object.at("/metadata/name").asString(), dryRunApply(object));
                }
            }

            String fullname = namespace.name() + "-sample-operator";
            assertThat(accepted).as(mode).containsKeys("Service " + fullname + "-webhook",
                    "Service " + fullname + "-conversion",
                    "ValidatingWebhookConfiguration " + fullname, "MutatingWebhookConfiguration " + fullname,
                    "CustomResourceDefinition staticsites.sample.operatorstarter.dev");
            JsonNode validating = accepted.get("ValidatingWebhookConfiguration " + fullname).at("/webhooks/0");
            assertThat(validating.path("failurePolicy").asString()).isEqualTo("Ignore");
            assertThat(validating.path("timeoutSeconds").asInt()).isEqualTo(7);
            assertThat(accepted.get("CustomResourceDefinition staticsites.sample.operatorstarter.dev")
                    .at("/spec/conversion/webhook/clientConfig/service/path").asString()).isEqualTo("/convert");
            assertThat(accepted.get("Service " + fullname + "-conversion").at("/spec/publishNotReadyAddresses").asBoolean())
                    .isTrue();
            assertThat(accepted).as("the NetworkPolicy and the Lease policy, with leader election")
                    .containsKeys("NetworkPolicy " + fullname, "ValidatingAdmissionPolicy " + fullname + "-leases");
            if (mode.equals("generated")) {
                assertThat(accepted).containsKeys("ClusterRole " + fullname + "-ca-injection",
                        "ValidatingAdmissionPolicy " + fullname + "-ca-injection",
                        "ValidatingAdmissionPolicy " + fullname + "-crd-ca-injection");
            }
        }
    }

    @Test
    void withGeneratedCertificatesTheChartsServiceAccountMayWriteTheCaBundleOfItsOwnObjectsOnly(
            ClusterConnection connection, TestNamespace namespace, @TempDir Path folder) {
        // Scoped to a namespace that does not exist, so no request in this shared API server is sent to it.
        Manifests chart = Chart.render(namespace.name(), namespace.name(), Map.of("webhooks.enabled", true,
                "webhooks.certificates.mode", "generated", "watchNamespaces[0]", namespace.name() + "-nowhere"));
        String fullname = namespace.name() + "-sample-operator";
        for (JsonNode object : chart.documents()) {
            String name = object.at("/metadata/name").asString();
            // the webhook configurations, the CA injection's ClusterRole and binding, and the admission
            // policies (with their bindings) that keep its updates to the caBundle
            if (object.path("kind").asString().endsWith("WebhookConfiguration") || name.equals(fullname + "-ca-injection")
                    || name.equals(fullname + "-crd-ca-injection")) {
                create(object);
            }
        }
        String account = chart.one("Deployment").at("/spec/template/spec/serviceAccountName").asString();
        ClusterConnection asOperator = ServiceAccounts.connectAs(connection, namespace.name(), account,
                ServiceAccounts.MINIMUM_VALIDITY, folder.resolve("kubeconfig"));
        String bundle = Base64.getEncoder().encodeToString(connection.certificateAuthorityPem().getBytes());

        try (KubernetesClient operator = KubernetesClient.create(KubeconfigLoader.load(asOperator.kubeconfig(), null))) {
            // What the operator's CaBundleInjector does: get, set every webhook's caBundle, update.
            ResourceClient<ValidatingWebhookConfiguration> validating = operator.resources(ValidatingWebhookConfiguration.class);
            // The binding reaches the API server's RBAC cache within moments.
            ValidatingWebhookConfiguration ownValidating = await().atMost(Duration.ofSeconds(10))
                    .ignoreException(ApiException.Forbidden.class).until(() -> validating.get(fullname), found -> true);
            // The policies reach the API server's admission within moments too: until a change beyond
            // the caBundle is refused, each one that got through is undone by the administrator.
            List<String> operations = List.copyOf(ownValidating.getWebhooks().get(0).getRules().get(0).getOperations());
            Throwable refused = await().atMost(Duration.ofSeconds(30)).until(() -> {
                ValidatingWebhookConfiguration widened = validating.get(fullname);
                widened.getWebhooks().get(0).getRules().get(0).getOperations().add("DELETE");
                try {
                    validating.update(widened);
                } catch (ApiException.Forbidden expected) {
                    return expected;
                }
                ValidatingWebhookConfiguration undo = admin.resources(ValidatingWebhookConfiguration.class).get(fullname);
                undo.getWebhooks().get(0).getRules().get(0).setOperations(new ArrayList<>(operations));
                admin.resources(ValidatingWebhookConfiguration.class).update(undo);
                return null;
            }, failure -> failure != null);
            assertThat(refused).hasMessageContaining("the operator may change only the caBundle of its webhook configurations");
            ownValidating = validating.get(fullname);
            ownValidating.getWebhooks().forEach(webhook -> webhook.getClientConfig().setCaBundle(bundle));
            validating.update(ownValidating);
            ResourceClient<MutatingWebhookConfiguration> mutating = operator.resources(MutatingWebhookConfiguration.class);
            MutatingWebhookConfiguration ownMutating = mutating.get(fullname);
            ownMutating.getWebhooks().forEach(webhook -> webhook.getClientConfig().setCaBundle(bundle));
            mutating.update(ownMutating);
            ResourceClient<CustomResourceDefinition> crds = operator.apiextensionsV1().customResourceDefinitions();
            // Unchanged, so the shared CRD keeps its (webhook-less) conversion; the update is still authorised.
            crds.update(crds.get("staticsites.sample.operatorstarter.dev"));

            assertThat(admin.resources(ValidatingWebhookConfiguration.class).get(fullname).getWebhooks())
                    .allSatisfy(webhook -> assertThat(webhook.getClientConfig().getCaBundle()).isEqualTo(bundle));
            assertThat(admin.resources(MutatingWebhookConfiguration.class).get(fullname).getWebhooks())
                    .allSatisfy(webhook -> assertThat(webhook.getClientConfig().getCaBundle()).isEqualTo(bundle));
            assertThatThrownBy(validating::list).as("only by name").isInstanceOf(ApiException.Forbidden.class);
            assertThatThrownBy(() -> validating.get(fullname + "-other")).isInstanceOf(ApiException.Forbidden.class);
            assertThatThrownBy(() -> crds.get("widgets.starter.operatorstarter.dev"))
                    .isInstanceOf(ApiException.Forbidden.class);
            assertThatThrownBy(() -> validating.delete(fullname)).isInstanceOf(ApiException.Forbidden.class);

            // With the caBundle, nothing else may change: not where the calls go, not the rules, not the
            // owner references (which could hand the object to the garbage collector)
            MutatingWebhookConfiguration redirected = mutating.get(fullname);
            redirected.getWebhooks().forEach(webhook -> webhook.getClientConfig().getService().setName("elsewhere"));
            assertThatThrownBy(() -> mutating.update(redirected)).isInstanceOf(ApiException.Forbidden.class)
                    .hasMessageContaining("the operator may change only the caBundle of its webhook configurations");
            MutatingWebhookConfiguration unscoped = mutating.get(fullname);
            unscoped.getWebhooks().forEach(webhook -> webhook.setNamespaceSelector(null));
            assertThatThrownBy(() -> mutating.update(unscoped)).isInstanceOf(ApiException.Forbidden.class);
            ValidatingWebhookConfiguration owned = validating.get(fullname);
            owned.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder()
                    .withApiVersion("v1").withKind("ConfigMap").withName("any").withUid("0a0a0a0a-0000-0000-0000-000000000000")
                    .build()));
            assertThatThrownBy(() -> validating.update(owned)).isInstanceOf(ApiException.Forbidden.class);
            CustomResourceDefinition renamed = crds.get("staticsites.sample.operatorstarter.dev");
            renamed.getSpec().getNames().setCategories(List.of("probe"));
            assertThatThrownBy(() -> crds.update(renamed)).isInstanceOf(ApiException.Forbidden.class)
                    .hasMessageContaining("the operator may change only the caBundle of its CRD's conversion webhook");
            CustomResourceDefinition reschemed = crds.get("staticsites.sample.operatorstarter.dev");
            reschemed.getSpec().getVersions().get(0).setServed(false);
            assertThatThrownBy(() -> crds.update(reschemed)).isInstanceOf(ApiException.Forbidden.class);
            assertThat(admin.resources(MutatingWebhookConfiguration.class).get(fullname).getWebhooks())
                    .allSatisfy(webhook -> assertThat(webhook.getClientConfig().getService().getName())
                            .isEqualTo(fullname + "-webhook"));
        }
    }

    /** Server-side apply as a dry run: validated and admitted as for real, stored nowhere; the object as it would be. */
    private static JsonNode dryRunApply(JsonNode object) {
        GenericKubernetesResource applied = resources(object).apply(JSON.treeToValue(object, GenericKubernetesResource.class),
                DRY_RUN);
        return JSON.valueToTree(applied);
    }

    /** Creates {@code object} for real, and deletes it after the test. */
    private void create(JsonNode object) {
        ResourceClient<GenericKubernetesResource> resources = resources(object);
        resources.create(JSON.treeToValue(object, GenericKubernetesResource.class));
        String name = object.at("/metadata/name").asString();
        cleanUp.push(() -> resources.delete(name));
    }

    private static ResourceClient<GenericKubernetesResource> resources(JsonNode object) {
        ResourceClient<GenericKubernetesResource> resources = admin.dynamic(object.path("apiVersion").asString(),
                object.path("kind").asString());
        String namespace = object.at("/metadata/namespace").asString("");
        return namespace.isEmpty() ? resources : resources.inNamespace(namespace);
    }
}

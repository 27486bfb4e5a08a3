package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.internal.Await;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.Tls;
import dev.operatorstarter.test.local.LocalApiServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Proves the test cluster is a real Kubernetes control plane: storage, the namespace and garbage
 * collection controllers, RBAC with TokenRequest-issued tokens, and CRDs.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
class ApiServerSmokeIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);

    @Test
    void serverReportsARealKubernetesRelease(KubernetesCluster cluster) {
        JsonNode version = api(cluster.connection()).get("/version").orThrow("GET /version");

        assertThat(version.path("gitVersion").asString()).matches("v\\d+\\.\\d+\\.\\d+.*")
                .isEqualTo(cluster.serverVersion());
        if (cluster.backend() == ClusterBackend.LOCAL) {
            assertThat(cluster.serverVersion()).isEqualTo(LocalApiServer.kubernetesVersion());
            assertThat(version.path("gitTreeState").asString()).isEqualTo("clean");
        }
    }

    @Test
    void configMapCanBeCreatedReadListedAndDeleted(ClusterConnection connection, TestNamespace namespace) {
        KubernetesApi api = api(connection);
        String collection = "/api/v1/namespaces/" + namespace.name() + "/configmaps";

        api.post(collection, configMap("settings", "colour", "blue")).orThrow("create");
        JsonNode read = api.get(collection + "/settings").orThrow("get");
        List<String> listed = names(api.get(collection).orThrow("list"));
        api.delete(collection + "/settings").orThrow("delete");

        assertThat(read.path("data").path("colour").asString()).isEqualTo("blue");
        assertThat(listed).contains("settings");
        assertThat(api.get(collection + "/settings").status()).isEqualTo(404);
    }

    @Test
    void deletingANamespaceRemovesItAndWhatItHolds(KubernetesCluster cluster, ClusterConnection connection) {
        org.junit.jupiter.api.Assumptions.assumeTrue(cluster.hasControllerManager(),
                "no kube-controller-manager (KUBEBUILDER_ASSETS): deleted namespaces stay Terminating");
        KubernetesApi api = api(connection);
        ObjectNode namespace = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Namespace");
        namespace.putObject("metadata").put("generateName", "doomed-");
        String name = api.post("/api/v1/namespaces", namespace).orThrow("create namespace")
                .path("metadata").path("name").asString();
        api.post("/api/v1/namespaces/" + name + "/configmaps", configMap("inside", "k", "v")).orThrow("create");

        api.delete("/api/v1/namespaces/" + name).orThrow("delete namespace");

        // Only the namespace controller (kube-controller-manager) empties a namespace and removes
        // its finalizer; with the API server alone it would stay Terminating for ever.
        Await.condition("namespace " + name + " to be gone", TIMEOUT, POLL,
                () -> api.get("/api/v1/namespaces/" + name).status() == 404);
    }

    @Test
    void anObjectIsGarbageCollectedAfterItsOwnerIsDeleted(KubernetesCluster cluster, ClusterConnection connection,
            TestNamespace namespace) {
        org.junit.jupiter.api.Assumptions.assumeTrue(cluster.hasControllerManager(),
                "no kube-controller-manager (KUBEBUILDER_ASSETS): nothing collects garbage");
        KubernetesApi api = api(connection);
        String collection = "/api/v1/namespaces/" + namespace.name() + "/configmaps";
        JsonNode owner = api.post(collection, configMap("owner", "role", "owner")).orThrow("create owner");
        ObjectNode dependent = configMap("dependent", "role", "dependent");
        ((ObjectNode) dependent.path("metadata")).putArray("ownerReferences").addObject()
                .put("apiVersion", "v1").put("kind", "ConfigMap").put("name", "owner")
                .put("uid", owner.path("metadata").path("uid").asString());
        api.post(collection, dependent).orThrow("create dependent");

        api.delete(collection + "/owner").orThrow("delete owner");

        Await.condition("the dependent ConfigMap to be garbage-collected", TIMEOUT, POLL,
                () -> api.get(collection + "/dependent").status() == 404);
    }

    @Test
    void aServiceAccountTokenIsDeniedWithoutABindingAndAllowedWithOne(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) {
        KubernetesApi admin = api(connection);
        String ns = "/api/v1/namespaces/" + namespace.name();
        ClusterConnection asReader = ServiceAccounts.connectAs(connection, namespace.name(), "reader",
                ServiceAccounts.MINIMUM_VALIDITY, folder.resolve("reader.kubeconfig"));
        String token = asReader.bearerToken();
        assertThat(Kubeconfig.read(asReader.kubeconfig(), null).bearerToken()).isEqualTo(token);
        assertThat(asReader.clientCertificatePem()).isNull();
        // TLS without the admin's client certificate, which would otherwise authenticate first.
        KubernetesApi reader = admin.withBearerToken(Tls.sslContext(connection.certificateAuthorityPem(), null, null),
                token);

        int withoutBinding = reader.get(ns + "/configmaps").status();
        String identity = reader.post("/apis/authentication.k8s.io/v1/selfsubjectreviews",
                KubernetesApi.object().put("apiVersion", "authentication.k8s.io/v1").put("kind", "SelfSubjectReview"))
                .orThrow("SelfSubjectReview").path("status").path("userInfo").path("username").asString();
        bindConfigMapReader(admin, namespace.name());

        assertThat(identity).isEqualTo("system:serviceaccount:" + namespace.name() + ":reader");
        assertThat(withoutBinding).isEqualTo(403);
        Await.condition("the RoleBinding to take effect", TIMEOUT, POLL,
                () -> reader.get(ns + "/configmaps").status() == 200);
        assertThat(reader.get(ns + "/secrets").status())
                .as("the role grants configmaps only").isEqualTo(403);
    }

    @Test
    void aCrdNamedOnTheAnnotationIsEstablishedAndServesItsResources(ClusterConnection connection,
            TestNamespace namespace) {
        KubernetesApi api = api(connection);
        String collection = "/apis/test.operatorstarter.dev/v1/namespaces/" + namespace.name() + "/widgets";
        ObjectNode widget = KubernetesApi.object().put("apiVersion", "test.operatorstarter.dev/v1").put("kind", "Widget");
        widget.putObject("metadata").put("name", "w1");
        widget.putObject("spec").put("size", 3);
        ObjectNode invalid = widget.deepCopy();
        ((ObjectNode) invalid.path("metadata")).put("name", "w2");
        ((ObjectNode) invalid.path("spec")).put("size", 0);

        JsonNode created = api.post(collection, widget).orThrow("create widget");
        int invalidStatus = api.post(collection, invalid).status();

        assertThat(created.path("spec").path("size").asInt()).isEqualTo(3);
        assertThat(invalidStatus).as("the CRD's schema is enforced").isEqualTo(422);
    }

    @Test
    void theKubeconfigFileReachesTheSameServerAsTheConnection(ClusterConnection connection) {
        Kubeconfig.Entry entry = Kubeconfig.read(connection.kubeconfig(), null);

        assertThat(entry.server()).isEqualTo(connection.server());
        KubernetesApi viaFile = KubernetesApi.of(entry.server(),
                Tls.sslContext(entry.certificateAuthorityPem(),
                        entry.clientCertificatePem(), entry.clientKeyPem()), entry.bearerToken());
        assertThat(viaFile.get("/api/v1/namespaces/default").status()).isEqualTo(200);
    }

    @Test
    void namespaceParametersOfOneTestShareOneNamespace(TestNamespace first, TestNamespace second,
            ClusterConnection connection) {
        assertThat(first).isEqualTo(second);
        assertThat(first.name()).startsWith("apiserversmokeit-");
        JsonNode namespace = api(connection).get("/api/v1/namespaces/" + first.name()).orThrow("get namespace");
        assertThat(namespace.path("metadata").path("labels").path(ClusterAccess.TEST_LABEL).asString()).isEqualTo("true");
    }

    private static void bindConfigMapReader(KubernetesApi admin, String namespace) {
        String rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + namespace;
        ObjectNode role = KubernetesApi.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "Role");
        role.putObject("metadata").put("name", "configmap-reader");
        ObjectNode rule = role.putArray("rules").addObject();
        rule.putArray("apiGroups").add("");
        rule.putArray("resources").add("configmaps");
        rule.putArray("verbs").add("get").add("list");
        admin.post(rbac + "/roles", role).orThrow("create role");
        ObjectNode binding = KubernetesApi.object().put("apiVersion", "rbac.authorization.k8s.io/v1")
                .put("kind", "RoleBinding");
        binding.putObject("metadata").put("name", "reader-reads-configmaps");
        binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "Role")
                .put("name", "configmap-reader");
        binding.putArray("subjects").addObject().put("kind", "ServiceAccount").put("name", "reader")
                .put("namespace", namespace);
        admin.post(rbac + "/rolebindings", binding).orThrow("create role binding");
    }

    private static ObjectNode configMap(String name, String key, String value) {
        ObjectNode configMap = KubernetesApi.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        configMap.putObject("metadata").put("name", name);
        configMap.putObject("data").put(key, value);
        return configMap;
    }

    private static List<String> names(JsonNode list) {
        List<String> names = new ArrayList<>();
        list.path("items").forEach(item -> names.add(item.path("metadata").path("name").asString()));
        return names;
    }

    private static KubernetesApi api(ClusterConnection connection) {
        return ClusterAccess.api(connection);
    }
}

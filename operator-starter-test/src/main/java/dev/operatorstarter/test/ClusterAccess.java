package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.Await;
import dev.operatorstarter.test.internal.DefaultServiceAccount;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** What the extension does on a cluster: namespaces and CRDs, through the harness's own HTTP client. */
final class ClusterAccess {

    static final String TEST_LABEL = "operator-starter.dev/test";
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final String CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private final KubernetesApi api;
    private final boolean controllerManager;

    /** For a cluster whose controller manager creates each namespace's {@code default} service account. */
    ClusterAccess(ClusterConnection connection) {
        this(connection, true);
    }

    /**
     * @param controllerManager whether a controller manager creates each namespace's {@code default}
     *        service account; if not, {@link #createNamespace} creates it
     */
    ClusterAccess(ClusterConnection connection, boolean controllerManager) {
        this.api = api(connection);
        this.controllerManager = controllerManager;
    }

    /** The harness's HTTP client for {@code connection}. */
    static KubernetesApi api(ClusterConnection connection) {
        return KubernetesApi.of(connection.server(), connection.sslContext(), connection.bearerToken());
    }

    /** The names of the nodes whose Ready condition is True, in the server's order. */
    static List<String> readyNodes(ClusterConnection connection) {
        List<String> names = new ArrayList<>();
        for (JsonNode node : api(connection).get("/api/v1/nodes").orThrow("listing nodes").path("items")) {
            for (JsonNode condition : node.path("status").path("conditions")) {
                if ("Ready".equals(condition.path("type").asString("")) && "True".equals(condition.path("status").asString(""))) {
                    names.add(node.path("metadata").path("name").asString());
                }
            }
        }
        return List.copyOf(names);
    }

    /** The server's {@code gitVersion}. */
    String serverVersion() {
        return api.get("/version").orThrow("GET /version").path("gitVersion").asString();
    }

    /**
     * Creates a namespace named after {@code owner} plus a random suffix, and waits for its
     * {@code default} service account so that pods can be created in it at once (creating it where
     * no controller manager would).
     */
    TestNamespace createNamespace(String owner) {
        ObjectNode body = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Namespace");
        ObjectNode metadata = body.putObject("metadata").put("generateName", namespacePrefix(owner));
        metadata.putObject("labels").put(TEST_LABEL, "true");
        String name = api.post("/api/v1/namespaces", body).orThrow("creating a test namespace")
                .path("metadata").path("name").asString();
        if (!controllerManager) {
            DefaultServiceAccount.ensure(api, name);
        }
        Await.condition("the default service account in namespace " + name, READY_TIMEOUT, POLL,
                () -> api.get("/api/v1/namespaces/" + name + "/serviceaccounts/default").isSuccess());
        return new TestNamespace(name);
    }

    /** Requests deletion; the namespace controller finishes it in the background. */
    void deleteNamespace(TestNamespace namespace) {
        KubernetesApi.Response response = api.delete("/api/v1/namespaces/" + namespace.name());
        if (!response.isSuccess() && response.status() != 404) {
            response.orThrow("deleting test namespace " + namespace.name());
        }
    }

    /** Creates or updates every CRD in the classpath {@code resource}, then waits until each is Established. */
    void installCrds(String resource, ClassLoader loader) {
        List<String> names = new ArrayList<>();
        for (JsonNode crd : readDocuments(resource, loader)) {
            if (!"CustomResourceDefinition".equals(crd.path("kind").asString(""))) {
                throw new ClusterStartException("CRD manifest " + resource + " holds a " + crd.path("kind").asString("document without kind")
                        + "; only CustomResourceDefinition documents are installed");
            }
            String name = crd.path("metadata").path("name").asString("");
            if (name.isEmpty()) {
                throw new ClusterStartException("CRD manifest " + resource + " has a CustomResourceDefinition without metadata.name");
            }
            KubernetesApi.Response created = api.post(CRD_PATH, crd);
            if (created.status() == 409) {
                JsonNode existing = api.get(CRD_PATH + "/" + name).orThrow("reading CRD " + name);
                ((ObjectNode) crd.path("metadata")).put("resourceVersion",
                        existing.path("metadata").path("resourceVersion").asString());
                api.put(CRD_PATH + "/" + name, crd).orThrow("updating CRD " + name + " from " + resource);
            } else {
                created.orThrow("creating CRD " + name + " from " + resource);
            }
            names.add(name);
        }
        for (String name : names) {
            Await.condition("CRD " + name + " to be Established", READY_TIMEOUT, POLL,
                    () -> api.get(CRD_PATH + "/" + name).hasTrueCondition("Established"));
        }
    }


    private static List<JsonNode> readDocuments(String resource, ClassLoader loader) {
        String path = resource.startsWith("/") ? resource.substring(1) : resource;
        try (InputStream in = loader.getResourceAsStream(path)) {
            if (in == null) {
                throw new ClusterStartException("CRD manifest " + resource + " is not on the test classpath");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            List<JsonNode> documents = new ArrayList<>();
            try (MappingIterator<JsonNode> values = YAML.readerFor(JsonNode.class).readValues(text)) {
                while (values.hasNextValue()) {
                    Optional.ofNullable(values.nextValue()).filter(JsonNode::isObject).ifPresent(documents::add);
                }
            }
            return documents;
        } catch (IOException | JacksonException e) {
            throw new ClusterStartException("cannot read CRD manifest " + resource + ": " + e.getMessage(), e);
        }
    }

    /** A DNS-1123 label prefix from a class name: {@code WidgetIT} becomes {@code widgetit-}. */
    static String namespacePrefix(String owner) {
        String cleaned = owner.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        if (cleaned.isEmpty()) {
            cleaned = "test";
        }
        return (cleaned.length() > 40 ? cleaned.substring(0, 40).replaceAll("-+$", "") : cleaned) + "-";
    }
}

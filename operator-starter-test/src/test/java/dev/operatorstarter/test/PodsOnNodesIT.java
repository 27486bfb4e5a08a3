package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.operatorstarter.test.internal.KubernetesApi;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code @KubernetesTest(nodes = 3)}: Pods run. On the local backend they run on KWOK's fake nodes,
 * scheduled by kube-scheduler, and the workload controllers make Deployments available.
 */
@KubernetesTest(nodes = 3)
class PodsOnNodesIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static KubernetesApi api;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        api = KubernetesApi.of(connection.server(), connection.sslContext(), connection.bearerToken());
    }

    @Test
    void theClassStartsWithTheNodesItAskedForReady(KubernetesCluster cluster) {
        List<String> nodes = cluster.ensureNodes(3);

        if (cluster.backend() == ClusterBackend.LOCAL) {
            assertThat(nodes).containsExactly("kwok-node-0", "kwok-node-1", "kwok-node-2");
        }
        assertThat(nodes).isNotEmpty().allSatisfy(node -> assertThat(isTrue(
                api.get("/api/v1/nodes/" + node).orThrow("reading node " + node).path("status"), "Ready")).as(node).isTrue());
    }

    @Test
    void aDeploymentOfTwoReplicasBecomesAvailableWithTwoReadyReplicas(TestNamespace namespace) {
        String path = "/apis/apps/v1/namespaces/" + namespace.name() + "/deployments";
        api.post(path, deployment("web", 2)).orThrow("creating deployment web");

        JsonNode status = Eventually.await("deployment web to be Available with 2 ready replicas", TIMEOUT,
                () -> api.get(path + "/web").orThrow("reading deployment web").path("status"),
                s -> s.path("readyReplicas").asInt() == 2 && isTrue(s, "Available"));

        assertThat(status.path("availableReplicas").asInt()).isEqualTo(2);
        assertThat(status.path("replicas").asInt()).isEqualTo(2);
    }

    @Test
    void aPodBecomesRunningAndReadyOnAFakeNode(KubernetesCluster cluster, TestNamespace namespace) {
        String path = podsPath(namespace);
        api.post(path, pod("ready")).orThrow("creating pod ready");

        JsonNode pod = Eventually.await("pod ready to be Ready", TIMEOUT,
                () -> api.get(path + "/ready").orThrow("reading pod ready"), p -> isTrue(p.path("status"), "Ready"));

        assertThat(pod.path("status").path("phase").asString()).isEqualTo("Running");
        assertThat(pod.path("status").path("podIP").asString()).isNotEmpty();
        assertThat(pod.path("spec").path("nodeName").asString()).isIn(cluster.ensureNodes(3));
    }

    @Test
    void deletingARunningPodCompletes(TestNamespace namespace) {
        String path = podsPath(namespace);
        api.post(path, pod("doomed")).orThrow("creating pod doomed");
        Eventually.await("pod doomed to be Ready", TIMEOUT,
                () -> isTrue(api.get(path + "/doomed").orThrow("reading pod doomed").path("status"), "Ready"));

        api.delete(path + "/doomed").orThrow("deleting pod doomed");

        Eventually.await("pod doomed to be gone", TIMEOUT, () -> api.get(path + "/doomed").status() == 404);
    }

    /**
     * On a node of its own, made cordoned from the start (KWOK manages it like the others), so that the
     * scheduler cannot have placed the Pod before it saw the cordon. Local backend only: the harness
     * changes no node of another cluster.
     */
    @Test
    void aCordonedNodeKeepsANewPodPendingUntilItIsUncordoned(KubernetesCluster cluster, TestNamespace namespace) {
        assumeTrue(cluster.backend() == ClusterBackend.LOCAL, "the harness creates nodes on the local backend only");
        String node = "cordoned-" + namespace.name();
        ObjectNode cordoned = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Node");
        ObjectNode metadata = cordoned.putObject("metadata").put("name", node);
        metadata.putObject("annotations").put("kwok.x-k8s.io/node", "fake");
        metadata.putObject("labels").put("kubernetes.io/hostname", node);
        cordoned.putObject("spec").put("unschedulable", true);
        api.post("/api/v1/nodes", cordoned).orThrow("creating node " + node);
        try {
            Eventually.await("node " + node + " to be Ready", TIMEOUT,
                    () -> isTrue(api.get("/api/v1/nodes/" + node).orThrow("reading node " + node).path("status"), "Ready"));
            String path = podsPath(namespace);
            ObjectNode pinned = pod("pinned");
            ((ObjectNode) pinned.path("spec")).putObject("nodeSelector").put("kubernetes.io/hostname", node);
            api.post(path, pinned).orThrow("creating pod pinned");

            JsonNode scheduled = Eventually.await("pod pinned to be found unschedulable", TIMEOUT,
                    () -> condition(api.get(path + "/pinned").orThrow("reading pod pinned").path("status"), "PodScheduled"),
                    c -> "False".equals(c.path("status").asString("")));
            assertThat(scheduled.path("reason").asString()).isEqualTo("Unschedulable");
            JsonNode pod = api.get(path + "/pinned").orThrow("reading pod pinned");
            assertThat(pod.path("spec").path("nodeName").asString("")).isEmpty();
            assertThat(pod.path("status").path("phase").asString()).isEqualTo("Pending");

            setUnschedulable(node, false);

            JsonNode running = Eventually.await("pod pinned to be Ready once " + node + " is uncordoned", TIMEOUT,
                    () -> api.get(path + "/pinned").orThrow("reading pod pinned"), p -> isTrue(p.path("status"), "Ready"));
            assertThat(running.path("spec").path("nodeName").asString()).isEqualTo(node);
            api.delete(path + "/pinned").orThrow("deleting pod pinned");
            Eventually.await("pod pinned to be gone", TIMEOUT, () -> api.get(path + "/pinned").status() == 404);
        } finally {
            api.delete("/api/v1/nodes/" + node);
        }
    }

    private static void setUnschedulable(String node, boolean unschedulable) {
        ObjectNode patch = KubernetesApi.object();
        patch.putObject("spec").put("unschedulable", unschedulable);
        api.mergePatch("/api/v1/nodes/" + node, patch).orThrow((unschedulable ? "cordoning " : "uncordoning ") + node);
    }

    private static String podsPath(TestNamespace namespace) {
        return "/api/v1/namespaces/" + namespace.name() + "/pods";
    }

    static ObjectNode pod(String name) {
        ObjectNode pod = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", name);
        pod.set("spec", podSpec());
        return pod;
    }

    private static ObjectNode podSpec() {
        ObjectNode spec = KubernetesApi.object();
        spec.putArray("containers").addObject().put("name", "web").put("image", "web:1");
        return spec;
    }

    private static ObjectNode deployment(String name, int replicas) {
        ObjectNode deployment = KubernetesApi.object().put("apiVersion", "apps/v1").put("kind", "Deployment");
        deployment.putObject("metadata").put("name", name);
        ObjectNode spec = deployment.putObject("spec").put("replicas", replicas);
        spec.putObject("selector").putObject("matchLabels").put("app", name);
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", name);
        template.set("spec", podSpec());
        return deployment;
    }

    private static JsonNode condition(JsonNode status, String type) {
        for (JsonNode condition : status.path("conditions")) {
            if (type.equals(condition.path("type").asString(""))) {
                return condition;
            }
        }
        return KubernetesApi.object();
    }

    private static boolean isTrue(JsonNode status, String type) {
        return "True".equals(condition(status, type).path("status").asString(""));
    }
}

package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.internal.Await;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Nodes on which Pods run, added to a running local API server: kube-scheduler, a second
 * kube-controller-manager with the workload controllers, and KWOK's controller, which plays the
 * kubelet of every node named {@value #NODE_PREFIX}{@code N}. A Pod bound to one of them becomes
 * Running and Ready at once, a Pod owned by a Job completes, a deleted Pod goes; Deployments,
 * ReplicaSets, StatefulSets, DaemonSets and Jobs then report real availability. No container runs:
 * a Pod's logs, exec, attach and port-forward do what KWOK's resources say ({@link Kwok}).
 *
 * <p>Not thread-safe: {@link LocalApiServer} calls it under its own lock.
 */
final class LocalNodes {

    private static final Logger log = LoggerFactory.getLogger(LocalNodes.class);
    /** Node names: {@code kwok-node-0}, {@code kwok-node-1}, ... */
    static final String NODE_PREFIX = "kwok-node-";
    private static final String CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private static final Duration POLL = Duration.ofMillis(100);
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private final KubernetesApi api;
    private final List<SupervisedProcess> processes;
    private final Duration timeout;
    private int count;

    private LocalNodes(KubernetesApi api, List<SupervisedProcess> processes, Duration timeout) {
        this.api = api;
        this.processes = List.copyOf(processes);
        this.timeout = timeout;
    }

    /**
     * Starts kube-scheduler, the workload controllers (when {@code controllerManager} is known) and
     * KWOK beside the server at {@code layout}, and waits until each serves; creates no node yet.
     * On failure stops what it started.
     */
    static LocalNodes start(Map<Binary, Path> binaries, @Nullable Path controllerManager, Optional<Path> supervisor,
            RunLayout layout, KubernetesApi api, HttpClient tls, Duration timeout) {
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        List<SupervisedProcess> launched = new ArrayList<>();
        try {
            int[] ports = LocalApiServer.freePorts(3);
            Path kwok = binaries.get(Binary.KWOK);
            Files.createDirectories(layout.kwok);
            Kwok.writeDefaults(kwok, layout);
            installCrds(api, Kwok.crds(layout), timeout);

            SupervisedProcess scheduler = ProcessLauncher.launch(launched, binaries.get(Binary.KUBE_SCHEDULER),
                    supervisor, Binary.KUBE_SCHEDULER, Binary.KUBE_SCHEDULER.fileName(), layout,
                    KubeScheduler.arguments(layout, ports[0]), Map.of());
            if (controllerManager != null) {
                KubeControllerManager.startWorkloads(launched, controllerManager, supervisor, layout, ports[1], tls,
                        deadline);
            } else {
                log.warn("No kube-controller-manager binary: nodes run without the workload controllers, so Pods "
                        + "created directly run, but Deployments, ReplicaSets and Jobs make none");
            }
            SupervisedProcess kwokProcess = ProcessLauncher.launch(launched, kwok, supervisor, Binary.KWOK,
                    Binary.KWOK.fileName(), layout, Kwok.arguments(layout, ports[2]), Kwok.environment(layout));
            ProcessLauncher.awaitHealthy(scheduler, tls, URI.create("https://127.0.0.1:" + ports[0] + "/healthz"),
                    deadline);
            ProcessLauncher.awaitHealthy(kwokProcess, tls, URI.create("https://127.0.0.1:" + ports[2] + "/healthz"),
                    deadline);
            log.info("kube-scheduler, the workload controllers and KWOK joined the local API server in {} ms",
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
            return new LocalNodes(api, launched, timeout);
        } catch (IOException | RuntimeException e) {
            launched.forEach(process -> process.stop(Duration.ofSeconds(10)));
            throw e instanceof ClusterStartException cse ? cse
                    : new ClusterStartException("the local API server's nodes did not start: " + e.getMessage()
                            + " (logs in " + layout.logs + ")", e);
        }
    }

    /** The processes started, in start order. */
    List<SupervisedProcess> processes() {
        return processes;
    }

    /**
     * Makes sure nodes {@code kwok-node-0} up to {@code kwok-node-(count-1)} exist and are Ready;
     * returns the names of all nodes made so far (never fewer than before).
     */
    List<String> ensure(int count) {
        for (int i = this.count; i < count; i++) {
            String name = NODE_PREFIX + i;
            KubernetesApi.Response created = api.post("/api/v1/nodes", node(name));
            if (!created.isSuccess() && created.status() != 409) {
                created.orThrow("creating node " + name);
            }
        }
        this.count = Math.max(this.count, count);
        List<String> names = names();
        for (String name : names) {
            Await.condition("node " + name + " to be Ready (KWOK's node-initialize Stage)", timeout, POLL,
                    () -> isReady(api.get("/api/v1/nodes/" + name)));
        }
        return names;
    }

    List<String> names() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(NODE_PREFIX + i);
        }
        return List.copyOf(names);
    }

    private static ObjectNode node(String name) {
        ObjectNode node = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Node");
        ObjectNode metadata = node.putObject("metadata").put("name", name);
        metadata.putObject("annotations").put(Kwok.NODE_ANNOTATION, Kwok.NODE_ANNOTATION_VALUE);
        metadata.putObject("labels")
                .put("kubernetes.io/hostname", name)
                .put("kubernetes.io/os", "linux")
                .put("kubernetes.io/arch", "amd64")
                .put("type", "kwok");
        return node;
    }

    private static boolean isReady(KubernetesApi.Response response) {
        if (!response.isSuccess() || response.body() == null) {
            return false;
        }
        for (JsonNode condition : response.body().path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asString("")) && "True".equals(condition.path("status").asString(""))) {
                return true;
            }
        }
        return false;
    }

    /** Creates the CRDs in {@code folder} (one YAML document per file) and waits until each is Established. */
    private static void installCrds(KubernetesApi api, Path folder, Duration timeout) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.sorted().toList()) {
                JsonNode crd = YAML.readTree(Files.readString(file));
                String name = crd.path("metadata").path("name").asString("");
                KubernetesApi.Response created = api.post(CRD_PATH, crd);
                if (!created.isSuccess() && created.status() != 409) {
                    created.orThrow("creating KWOK's CRD " + name + " from " + file);
                }
                names.add(name);
            }
        }
        for (String name : names) {
            Await.condition("KWOK's CRD " + name + " to be Established", timeout, POLL,
                    () -> api.get(CRD_PATH + "/" + name).hasTrueCondition("Established"));
        }
    }
}

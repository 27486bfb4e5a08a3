package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-controller-manager as the local API server runs it: the garbage collector, namespace,
 * service-account, service-account-token, root-CA publisher and cluster-role aggregation
 * controllers, acting as a cluster administrator, without leader election; and, once nodes are
 * asked for, a second one with the workload controllers.
 */
final class KubeControllerManager {

    private static final String CONTROLLERS = String.join(",", "garbage-collector-controller",
            "namespace-controller", "serviceaccount-controller", "serviceaccount-token-controller",
            "root-ca-certificate-publisher-controller", "clusterrole-aggregation-controller");

    /**
     * The controllers that only make sense where Pods run ({@code LocalNodes}): workloads, disruption
     * budgets' status, endpoint slices, the Pod garbage collector, and the node-lifecycle controller,
     * which lifts the {@code node.kubernetes.io/not-ready} taint that the API server puts on every new
     * node once the node reports Ready (without it no Pod is ever scheduled), and would mark a node
     * whose Lease is not renewed NotReady. No taint-eviction controller: nothing evicts Pods from a
     * node but a test.
     */
    private static final String WORKLOAD_CONTROLLERS = String.join(",", "node-lifecycle-controller",
            "deployment-controller",
            "replicaset-controller", "statefulset-controller", "daemonset-controller", "job-controller",
            "cronjob-controller", "ttl-after-finished-controller", "disruption-controller",
            "endpointslice-controller", "pod-garbage-collector-controller");

    /** The process name of the second controller manager, the one {@link #startWorkloads} starts. */
    static final String WORKLOADS_NAME = Binary.KUBE_CONTROLLER_MANAGER.fileName() + "-workloads";

    private KubeControllerManager() {
    }

    /** Starts kube-controller-manager and waits until it serves and has made the default service account. */
    static void start(List<SupervisedProcess> processes, LocalBinaries.Resolved binaries, RunLayout layout, int port,
            HttpClient tls, KubernetesApi api, long deadline) throws IOException {
        List<String> arguments = new ArrayList<>(arguments(layout, port, CONTROLLERS));
        arguments.add("--service-account-private-key-file=" + layout.serviceAccountKey);
        arguments.add("--root-ca-file=" + layout.caCert);
        SupervisedProcess controllerManager = ProcessLauncher.launch(processes, binaries,
                Binary.KUBE_CONTROLLER_MANAGER, layout, arguments);
        ProcessLauncher.awaitHealthy(controllerManager, tls, URI.create("https://127.0.0.1:" + port + "/healthz"),
                deadline);
        ProcessLauncher.awaitReady(controllerManager,
                "the default service account (created by kube-controller-manager)", deadline,
                () -> api.get("/api/v1/namespaces/default/serviceaccounts/default").isSuccess());
    }

    /**
     * Starts a second kube-controller-manager, named {@value #WORKLOADS_NAME}, with the
     * {@linkplain #WORKLOAD_CONTROLLERS workload controllers}, and waits until it serves. A second
     * process rather than a restart of the first: nodes are added to a running server, and the first
     * one's controllers go on undisturbed.
     */
    static SupervisedProcess startWorkloads(List<SupervisedProcess> processes, Path binary, Optional<Path> supervisor,
            RunLayout layout, int port, HttpClient tls, long deadline) throws IOException {
        SupervisedProcess workloads = ProcessLauncher.launch(processes, binary, supervisor,
                Binary.KUBE_CONTROLLER_MANAGER, WORKLOADS_NAME, layout, arguments(layout, port, WORKLOAD_CONTROLLERS),
                Map.of());
        ProcessLauncher.awaitHealthy(workloads, tls, URI.create("https://127.0.0.1:" + port + "/healthz"), deadline);
        return workloads;
    }

    private static List<String> arguments(RunLayout layout, int port, String controllers) {
        List<String> arguments = new ArrayList<>(layout.componentFlags(port));
        arguments.addAll(List.of("--controllers=" + controllers, "--leader-elect=false", "--profiling=false"));
        return arguments;
    }
}

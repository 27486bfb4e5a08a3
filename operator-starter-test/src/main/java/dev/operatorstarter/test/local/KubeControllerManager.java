package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;

/**
 * kube-controller-manager as the local API server runs it: the garbage collector, namespace,
 * service-account, service-account-token, root-CA publisher and cluster-role aggregation
 * controllers, acting as a cluster administrator, without leader election.
 */
final class KubeControllerManager {

    private static final String CONTROLLERS = String.join(",", "garbage-collector-controller",
            "namespace-controller", "serviceaccount-controller", "serviceaccount-token-controller",
            "root-ca-certificate-publisher-controller", "clusterrole-aggregation-controller");

    private KubeControllerManager() {
    }

    /** Starts kube-controller-manager and waits until it serves and has made the default service account. */
    static void start(List<SupervisedProcess> processes, LocalBinaries.Resolved binaries, RunLayout layout, int port,
            HttpClient tls, KubernetesApi api, long deadline) throws IOException {
        SupervisedProcess controllerManager = ProcessLauncher.launch(processes, binaries,
                Binary.KUBE_CONTROLLER_MANAGER, layout, List.of(
                        "--kubeconfig=" + layout.controllerManagerKubeconfig,
                        "--authentication-kubeconfig=" + layout.controllerManagerKubeconfig,
                        "--authorization-kubeconfig=" + layout.controllerManagerKubeconfig,
                        "--bind-address=127.0.0.1",
                        "--secure-port=" + port,
                        "--tls-cert-file=" + layout.servingCert,
                        "--tls-private-key-file=" + layout.servingKey,
                        "--controllers=" + CONTROLLERS,
                        "--service-account-private-key-file=" + layout.serviceAccountKey,
                        "--root-ca-file=" + layout.caCert,
                        "--leader-elect=false",
                        "--profiling=false"));
        ProcessLauncher.awaitHealthy(controllerManager, tls, URI.create("https://127.0.0.1:" + port + "/healthz"),
                deadline);
        ProcessLauncher.awaitReady(controllerManager,
                "the default service account (created by kube-controller-manager)", deadline,
                () -> api.get("/api/v1/namespaces/default/serviceaccounts/default").isSuccess());
    }
}

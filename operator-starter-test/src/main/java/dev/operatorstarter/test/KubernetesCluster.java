package dev.operatorstarter.test;

/**
 * A running Kubernetes API server for tests, from one of the backends {@link ClusterBackend}
 * names. Thread-safe. {@link #close()} stops what the backend started (processes, a container)
 * and never touches an existing cluster beyond the namespaces the harness created.
 */
public interface KubernetesCluster extends AutoCloseable {

    /** Which backend runs this cluster. */
    ClusterBackend backend();

    /** How to reach the API server as an administrator. */
    ClusterConnection connection();

    /** The server's {@code gitVersion} from {@code /version}, for example {@code v1.37.2}. */
    String serverVersion();

    /**
     * Whether kube-controller-manager runs beside the API server: garbage collection of objects
     * whose owner is deleted, namespace deletion, {@code default} service accounts. {@code true}
     * for K3s and existing clusters; {@code false} for a local server started from a binary folder
     * without it, such as envtest's {@code KUBEBUILDER_ASSETS}. A test of garbage collection can
     * {@code assumeTrue(cluster.hasControllerManager())}.
     */
    default boolean hasControllerManager() {
        return true;
    }

    /** Stops what this backend started. Idempotent. */
    @Override
    void close();
}

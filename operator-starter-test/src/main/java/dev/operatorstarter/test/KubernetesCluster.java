package dev.operatorstarter.test;

import java.util.List;

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

    /**
     * Makes Pods run on at least {@code count} nodes, where this backend can add nodes, and returns
     * the names of the cluster's Ready nodes. What {@link KubernetesTest#nodes()} calls.
     *
     * <ul>
     *   <li>Local: adds kube-scheduler, the workload controllers and KWOK's fake nodes on first use
     *       (building kube-scheduler and KWOK first when they are not cached), then the nodes that are
     *       missing; see {@code LocalApiServer.ensureNodes}.</li>
     *   <li>K3s and an existing cluster (this default): changes nothing, since their own nodes run the
     *       Pods, however many there are. A test that needs several nodes checks the size of the list.</li>
     * </ul>
     *
     * @throws IllegalArgumentException if {@code count} is negative
     */
    default List<String> ensureNodes(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        return ClusterAccess.readyNodes(connection());
    }

    /** Stops what this backend started. Idempotent. */
    @Override
    void close();
}

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

    /** Stops what this backend started. Idempotent. */
    @Override
    void close();
}

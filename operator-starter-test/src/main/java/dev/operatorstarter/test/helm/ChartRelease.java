package dev.operatorstarter.test.helm;

import com.marcnuri.helm.Helm;
import dev.operatorstarter.test.ClusterConnection;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A release of a {@link HelmChart} installed into a test cluster by {@link HelmChart#install};
 * {@link #close()} uninstalls it, so a test can hold it in a try-with-resources block.
 *
 * <p>Uninstalling deletes what the release's templates created and leaves what Helm never
 * deletes: the CRDs of the chart's {@code crds/} folder, and objects annotated
 * {@code helm.sh/resource-policy: keep}.
 */
public final class ChartRelease implements AutoCloseable {

    private final HelmChart chart;
    private final String name;
    private final String namespace;
    private final ClusterConnection connection;
    private final AtomicBoolean closed = new AtomicBoolean();

    ChartRelease(HelmChart chart, String name, String namespace, ClusterConnection connection) {
        this.chart = chart;
        this.name = name;
        this.namespace = namespace;
        this.connection = connection;
    }

    /** The chart it was installed from. */
    public HelmChart chart() {
        return chart;
    }

    /** The release's name ({@code .Release.Name} in the templates). */
    public String name() {
        return name;
    }

    /** The namespace it was installed into ({@code .Release.Namespace}). */
    public String namespace() {
        return namespace;
    }

    /**
     * {@code helm uninstall}; a second call does nothing, and a release that is gone already (its
     * namespace deleted) is not an error.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Helm.uninstall(name).withNamespace(namespace).withKubeConfig(connection.kubeconfig()).ignoreNotFound().call();
        }
    }

    @Override
    public String toString() {
        return "ChartRelease[" + namespace + "/" + name + " of " + chart.directory() + "]";
    }
}

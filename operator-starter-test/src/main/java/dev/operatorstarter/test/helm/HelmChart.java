package dev.operatorstarter.test.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.Release;
import com.marcnuri.helm.TemplateCommand;
import dev.operatorstarter.test.ClusterConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A Helm chart folder (the one with {@code Chart.yaml}), linted, rendered and installed by Helm 3
 * running in this JVM (helm-java). For unit tests of a chart, {@link #lint()} and
 * {@link #render}; for tests against the API server, {@link #install} into the test cluster.
 *
 * <pre>{@code
 * HelmChart chart = HelmChart.at(Path.of("chart"));
 * assertThat(chart.lint()).isEmpty();
 * RenderedChart rendered = chart.render("greeting", "team-a", Map.of("replicas", 1));
 * assertThat(RenderedChart.permissions(rendered.one("Role"))).contains("demo.example.com/greetings:watch");
 * }</pre>
 *
 * <p>{@code values} are what {@code helm --set} takes, one entry per key: keys are paths with dots
 * and list indexes ({@code extraEnv[0].name}), values are written with {@code toString()}, and a
 * comma or dot inside a value or key must be escaped with a backslash.
 *
 * <h2>Caveats</h2>
 * <ul>
 *   <li>Helm keeps no state between calls, but helm-java loads a native library once per JVM; the
 *       library is for one platform, so the test class path must hold the right one.
 *   <li>{@link #install} does not wait for anything to run: the local API server has no nodes, so
 *       a Deployment never gets pods. Run the operator as one with {@code DeploymentPod}.
 * </ul>
 */
public final class HelmChart {

    private final Path directory;

    private HelmChart(Path directory) {
        this.directory = directory;
    }

    /**
     * The chart in {@code directory}.
     *
     * @throws IllegalArgumentException if {@code directory} holds no {@code Chart.yaml}
     */
    public static HelmChart at(Path directory) {
        Path absolute = directory.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute.resolve("Chart.yaml"))) {
            throw new IllegalArgumentException("no Chart.yaml in " + absolute + ": not a Helm chart's folder");
        }
        return new HelmChart(absolute);
    }

    /** The chart's folder, absolute. */
    public Path directory() {
        return directory;
    }

    /**
     * {@code helm lint --strict}: warnings fail as errors do.
     *
     * @return nothing when the chart passes; otherwise every message Helm printed, the failing ones
     *     among them, so that {@code assertThat(chart.lint()).isEmpty()} shows them
     */
    public List<String> lint() {
        LintResult result = new Helm(directory).lint().strict().call();
        return result.isFailed() ? List.copyOf(result.getMessages()) : List.of();
    }

    /**
     * {@code helm template} of release {@code release} in {@code namespace} with {@code values} set,
     * as Helm would install it (the templates only: the files of {@code crds/} are not rendered).
     *
     * @throws IllegalStateException with Helm's message when a template fails
     *     ({@code fail}, a missing value, a schema violation)
     */
    public RenderedChart render(String release, String namespace, Map<String, ?> values) {
        TemplateCommand template = new Helm(directory).template().withName(release).withNamespace(namespace);
        values.forEach(template::set);
        return RenderedChart.parse(template.call());
    }

    /**
     * {@code helm install} of the chart as {@code release} into {@code namespace} of the cluster
     * behind {@code connection}, with {@code values} set: the files of {@code crds/} first (a CRD
     * that exists already is left as it is, as Helm does), then the templates.
     *
     * @param connection a connection allowed to create everything the chart holds (the test
     *     cluster's administrator)
     * @return the release, which {@code helm uninstall}s when closed
     * @throws IllegalStateException with Helm's message when the install fails
     */
    public ChartRelease install(ClusterConnection connection, String namespace, String release, Map<String, ?> values) {
        Objects.requireNonNull(connection, "connection");
        InstallCommand install = new Helm(directory).install().withName(release).withNamespace(namespace)
                .withKubeConfig(connection.kubeconfig());
        values.forEach(install::set);
        Release installed = install.call();
        if (!"deployed".equals(installed.getStatus())) {
            throw new IllegalStateException("helm install of " + release + " into " + namespace + " ended "
                    + installed.getStatus() + ": " + installed.getOutput());
        }
        return new ChartRelease(this, release, namespace, connection);
    }

    @Override
    public String toString() {
        return "HelmChart[" + directory + "]";
    }
}

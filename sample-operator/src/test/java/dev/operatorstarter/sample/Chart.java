package dev.operatorstarter.sample;

import com.marcnuri.helm.InstallCommand;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.helm.ChartRelease;
import dev.operatorstarter.test.helm.HelmChart;
import dev.operatorstarter.test.helm.RenderedChart;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The Helm chart in {@code helm/sample-operator}, linted, rendered and installed by Helm itself
 * through operator-starter-test's {@link HelmChart}, with what the sample's tests read from it.
 */
final class Chart {

    /** The chart's folder: the build passes it; a run from the module folder finds it too. */
    static final Path DIRECTORY = Path.of(System.getProperty("chart.directory", "../helm/sample-operator"))
            .toAbsolutePath().normalize();

    private Chart() {
    }

    /** The chart (set {@code -Dchart.directory} when the tests do not run from the module folder). */
    static HelmChart helm() {
        return HelmChart.at(DIRECTORY);
    }

    /** {@code helm install} of the chart as {@code release} into the cluster's {@code namespace}, with {@code values} set. */
    static ChartRelease install(ClusterConnection connection, String namespace, String release, Map<String, ?> values) {
        return helm().install(connection, namespace, release, values);
    }

    /** {@code helm template} of release {@code release} in {@code namespace} with {@code values} set. */
    static Manifests render(String release, String namespace, Map<String, ?> values) {
        return new Manifests(helm().render(release, namespace, values));
    }

    /**
     * The chart's {@code NOTES.txt} for release {@code release} in {@code namespace} with
     * {@code values} set, as {@code helm install --dry-run} prints them (no cluster needed).
     */
    static String notes(String release, String namespace, Map<String, ?> values) {
        InstallCommand install = new com.marcnuri.helm.Helm(DIRECTORY).install().withName(release).withNamespace(namespace)
                .dryRun().clientOnly();
        values.forEach(install::set);
        String output = install.call().getOutput();
        int notes = output.indexOf("NOTES:\n");
        if (notes < 0) {
            throw new AssertionError("helm install --dry-run printed no NOTES: " + output);
        }
        return output.substring(notes + "NOTES:\n".length());
    }

    /** A rendered chart, with the operator container's environment read from its Deployment. */
    record Manifests(RenderedChart rendered) {

        String text() {
            return rendered.text();
        }

        List<JsonNode> documents() {
            return rendered.documents();
        }

        List<JsonNode> all(String kind) {
            return rendered.all(kind);
        }

        JsonNode one(String kind) {
            return rendered.one(kind);
        }

        /** The operator container's environment as name to value, {@code fieldRef:<path>} for references. */
        Map<String, String> environment() {
            Map<String, String> environment = new LinkedHashMap<>();
            for (JsonNode variable : one("Deployment").at("/spec/template/spec/containers/0/env")) {
                environment.put(variable.path("name").asString(), variable.has("value") ? variable.path("value").asString()
                        : "fieldRef:" + variable.at("/valueFrom/fieldRef/fieldPath").asString());
            }
            return environment;
        }
    }

    /** A role's rules as {@code group/resource:verb} (with {@code @name} when limited to names), sorted. */
    static List<String> permissions(JsonNode role) {
        return RenderedChart.permissions(role);
    }
}

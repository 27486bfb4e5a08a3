package dev.operatorstarter.sample;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.Release;
import com.marcnuri.helm.TemplateCommand;
import dev.operatorstarter.test.ClusterConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.MappingIterator;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The Helm chart in {@code helm/sample-operator}, rendered by Helm itself (helm-java bundles Helm as
 * a native library) and read back as YAML documents for tests to check.
 */
final class Chart {

    /** The chart's folder: the build passes it; a run from the module folder finds it too. */
    static final Path DIRECTORY = Path.of(System.getProperty("chart.directory", "../helm/sample-operator"))
            .toAbsolutePath().normalize();
    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private Chart() {
    }

    static Helm helm() {
        if (!Files.isRegularFile(DIRECTORY.resolve("Chart.yaml"))) {
            throw new IllegalStateException("no Chart.yaml in " + DIRECTORY + " (set -Dchart.directory)");
        }
        return new Helm(DIRECTORY);
    }

    /**
     * {@code helm install} of the chart in {@code directory} as {@code release} into the cluster's
     * {@code namespace}, with {@code values} set; returns what uninstalls it.
     */
    static AutoCloseable install(Path directory, ClusterConnection connection, String namespace, String release,
            Map<String, ?> values) {
        InstallCommand install = new Helm(directory).install().withName(release).withNamespace(namespace)
                .withKubeConfig(connection.kubeconfig());
        values.forEach(install::set);
        Release installed = install.call();
        if (!"deployed".equals(installed.getStatus())) {
            throw new AssertionError("helm install of " + release + " ended " + installed.getStatus() + ": "
                    + installed.getOutput());
        }
        return () -> Helm.uninstall(release).withNamespace(namespace).withKubeConfig(connection.kubeconfig()).call();
    }

    /** {@code helm template} of release {@code release} in {@code namespace} with {@code values} set. */
    static Manifests render(String release, String namespace, Map<String, ?> values) {
        TemplateCommand template = helm().template().withName(release).withNamespace(namespace);
        values.forEach(template::set);
        return Manifests.parse(template.call());
    }

    /**
     * The chart's {@code NOTES.txt} for release {@code release} in {@code namespace} with
     * {@code values} set, as {@code helm install --dry-run} prints them (no cluster needed).
     */
    static String notes(String release, String namespace, Map<String, ?> values) {
        InstallCommand install = helm().install().withName(release).withNamespace(namespace).dryRun().clientOnly();
        values.forEach(install::set);
        String output = install.call().getOutput();
        int notes = output.indexOf("NOTES:\n");
        if (notes < 0) {
            throw new AssertionError("helm install --dry-run printed no NOTES: " + output);
        }
        return output.substring(notes + "NOTES:\n".length());
    }

    /** The documents of a rendered chart. */
    record Manifests(String text, List<JsonNode> documents) {

        static Manifests parse(String text) {
            List<JsonNode> documents = new ArrayList<>();
            try (MappingIterator<JsonNode> each = YAML.readerFor(JsonNode.class).readValues(text)) {
                while (each.hasNext()) {
                    JsonNode document = each.next();
                    if (document != null && document.isObject() && !document.isEmpty()) {
                        documents.add(document);
                    }
                }
            }
            return new Manifests(text, List.copyOf(documents));
        }

        List<JsonNode> all(String kind) {
            return documents.stream().filter(document -> kind.equals(document.path("kind").asString())).toList();
        }

        JsonNode one(String kind) {
            List<JsonNode> found = all(kind);
            if (found.size() != 1) {
                throw new AssertionError("expected one " + kind + ", the chart rendered " + found.size());
            }
            return found.get(0);
        }

        /** The operator container's environment as name to value, {@code fieldRef:<path>} for references. */
        Map<String, String> environment() {
            Map<String, String> environment = new java.util.LinkedHashMap<>();
            for (JsonNode variable : one("Deployment").at("/spec/template/spec/containers/0/env")) {
                environment.put(variable.path("name").asString(), variable.has("value") ? variable.path("value").asString()
                        : "fieldRef:" + variable.at("/valueFrom/fieldRef/fieldPath").asString());
            }
            return environment;
        }
    }

    /** A role's rules as {@code group/resource:verb} (with {@code @name} when limited to names), sorted. */
    static List<String> permissions(JsonNode role) {
        List<String> permissions = new ArrayList<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    for (JsonNode verb : rule.path("verbs")) {
                        String permission = group.asString() + "/" + resource.asString() + ":" + verb.asString();
                        if (rule.path("resourceNames").isEmpty()) {
                            permissions.add(permission);
                        } else {
                            rule.path("resourceNames").forEach(name -> permissions.add(permission + "@" + name.asString()));
                        }
                    }
                }
            }
        }
        return permissions.stream().sorted().toList();
    }
}

package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.helm.ChartRelease;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why the chart renders its CRD as a template rather than from {@code crds/}, shown against the real
 * API server: a changed CRD in a new chart version reaches the cluster on {@code helm upgrade}, and
 * {@code helm uninstall} keeps the CRD (and so every StaticSite) while removing the rest.
 */
@KubernetesTest(crds = Examples.CRD)
class ChartCrdIT {

    private static final String CRD = HasMetadata.getFullResourceName(StaticSite.class);
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void theCrdIsInstalledAndUpgradedWithTheReleaseAndKeptWhenItIsUninstalled(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        String release = namespace.name();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            ResourceClient<CustomResourceDefinition> crds = admin.apiextensionsV1().customResourceDefinitions();
            // The test harness installed the CRD without Helm; mark it as the release's, the way Helm
            // adopts an object that exists (what a user does once when moving CRDs into a release).
            crds.patch(CRD, PatchType.MERGE, Map.of("metadata", Map.of(
                    "labels", Map.of("app.kubernetes.io/managed-by", "Helm"),
                    "annotations", Map.of("meta.helm.sh/release-name", release,
                            "meta.helm.sh/release-namespace", namespace.name()))));
            JsonNode conversionBefore = JSON.valueToTree(crds.get(CRD).getSpec().getConversion());
            try {
                // Without the admission webhooks: their cluster-wide configurations would point at a Service no
                // pod backs here and refuse every StaticSite write of the other tests (ChartWebhooksIT covers
                // them). The CRD keeps its conversion, which the chart requires.
                ChartRelease uninstall = Chart.install(connection, namespace.name(), release,
                        Map.of("webhooks.validating.enabled", false, "webhooks.mutating.enabled", false));
                assertThat(crds.get(CRD).getMetadata().getAnnotations()).containsEntry("helm.sh/resource-policy", "keep");

                Path nextVersion = copy(Chart.DIRECTORY, folder.resolve("sample-operator"));
                Path crdFile = nextVersion.resolve("files").resolve(Examples.CRD);
                Files.writeString(crdFile, Files.readString(crdFile).replace("      - ssite\n", "      - ssite\n      - site\n"));
                Release upgraded = new Helm(nextVersion).upgrade().withName(release).withNamespace(namespace.name())
                        .set("webhooks.validating.enabled", false).set("webhooks.mutating.enabled", false)
                        .withKubeConfig(connection.kubeconfig()).call();

                assertThat(upgraded.getStatus()).isEqualTo("deployed");
                assertThat(upgraded.getRevision()).isEqualTo("2");
                assertThat(crds.get(CRD).getSpec().getNames().getShortNames()).containsExactly("ssite", "site");

                uninstall.close();

                assertThat(crds.find(CRD)).as("kept by helm.sh/resource-policy").isPresent();
                assertThat(admin.appsV1().deployments().inNamespace(namespace.name())
                        .find(release + "-sample-operator")).as("the rest of the release is gone").isEmpty();
            } finally {
                // As the other tests expect it: the chart's short names, no release owning it, and the conversion
                // it had (not the uninstalled release's Service).
                ObjectNode conversion = (ObjectNode) conversionBefore.deepCopy();
                if (!conversion.has("webhook")) {
                    conversion.putNull("webhook"); // a JSON merge patch removes a key whose value is null
                }
                crds.patch(CRD, PatchType.MERGE, "{\"metadata\":{\"labels\":{\"app.kubernetes.io/managed-by\":null},"
                        + "\"annotations\":{\"meta.helm.sh/release-name\":null,\"meta.helm.sh/release-namespace\":null}},"
                        + "\"spec\":{\"names\":{\"shortNames\":[\"ssite\"]},\"conversion\":" + conversion + "}}");
            }
        }
    }

    private static Path copy(Path from, Path to) throws Exception {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }
}

package dev.operatorstarter.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.internal.Await;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

@KubernetesTest
class DiscoveryIT {

    @Test
    void findsBuiltInResourcesWithTheirScopeAndTheServerVersion(ClusterConnection connection) {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            DiscoveryClient discovery = client.discovery();

            assertThat(discovery.serverVersion().gitVersion()).matches("v1\\.\\d+\\.\\d+.*");
            assertThat(discovery.groupVersions()).contains("v1", "apps/v1", "coordination.k8s.io/v1");
            assertThat(discovery.findKind("apps/v1", "Deployment")).hasValueSatisfying(resource -> {
                assertThat(resource.resource()).isEqualTo("deployments");
                assertThat(resource.namespaced()).isTrue();
                assertThat(resource.subresources()).contains("status", "scale");
            });
            assertThat(discovery.findKind("v1", "Namespace")).hasValueSatisfying(
                    resource -> assertThat(resource.namespaced()).isFalse());
        }
    }

    @Test
    void findsACustomResourceInstalledAfterTheCacheWasFilled(ClusterConnection connection) {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            DiscoveryClient discovery = client.discovery();
            assertThat(discovery.findKind("late.operatorstarter.dev/v1", "Latecomer")).isEmpty();

            CustomResourceDefinition crd = new CustomResourceDefinitionBuilder().withNewMetadata()
                    .withName("latecomers.late.operatorstarter.dev").endMetadata().withNewSpec()
                    .withGroup("late.operatorstarter.dev").withScope("Cluster").withNewNames().withPlural("latecomers")
                    .withSingular("latecomer").withKind("Latecomer").endNames().addNewVersion().withName("v1")
                    .withServed(true).withStorage(true).withNewSchema().withNewOpenAPIV3Schema().withType("object")
                    .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().endVersion().endSpec()
                    .build();
            client.apiextensionsV1().customResourceDefinitions().create(crd);
            Await.condition("the CRD to be served", Duration.ofSeconds(30), Duration.ofMillis(200),
                    () -> discovery.findKind("late.operatorstarter.dev/v1", "Latecomer").isPresent());

            assertThat(discovery.findKind("late.operatorstarter.dev/v1", "Latecomer")).hasValueSatisfying(resource -> {
                assertThat(resource.resource()).isEqualTo("latecomers");
                assertThat(resource.namespaced()).isFalse();
            });
            assertThat(client.dynamic("late.operatorstarter.dev/v1", "Latecomer").list().items()).isEmpty();
            client.apiextensionsV1().customResourceDefinitions().delete(crd.getMetadata().getName());
        }
    }

    @Test
    void aCrdThatServesOnlyAnotherVersionIsNamedAsInstalledWithTheVersionsItServes(ClusterConnection connection) {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            CustomResourceDefinition crd = new CustomResourceDefinitionBuilder().withNewMetadata()
                    .withName("gizmos.versions.operatorstarter.dev").endMetadata().withNewSpec()
                    .withGroup("versions.operatorstarter.dev").withScope("Namespaced").withNewNames().withPlural("gizmos")
                    .withSingular("gizmo").withKind("Gizmo").endNames().addNewVersion().withName("v1alpha1")
                    .withServed(true).withStorage(true).withNewSchema().withNewOpenAPIV3Schema().withType("object")
                    .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().endVersion().endSpec()
                    .build();
            client.apiextensionsV1().customResourceDefinitions().create(crd);
            try {
                GroupVersionResource v1 = new GroupVersionResource("versions.operatorstarter.dev", "v1", "gizmos");
                GroupVersionResource v1alpha1 = new GroupVersionResource("versions.operatorstarter.dev", "v1alpha1",
                        "gizmos");
                Await.condition("the CRD to be served", Duration.ofSeconds(30), Duration.ofMillis(200),
                        () -> client.discovery().lookup(List.of(v1alpha1), Duration.ofSeconds(10))
                                .get(0) instanceof ResourceLookup.Served);

                ResourceLookup answer = client.discovery().lookup(List.of(v1), Duration.ofSeconds(10)).get(0);

                assertThat(answer).isInstanceOfSatisfying(ResourceLookup.NotServed.class, notServed -> {
                    assertThat(notServed.groupVersionServed()).isFalse();
                    assertThat(notServed.servedInVersions()).containsExactly("v1alpha1");
                    assertThat(notServed.describe("https://api")).isEqualTo("the CRD for gizmos.versions.operatorstarter.dev "
                            + "does not serve version v1 (it serves v1alpha1; no resource gizmos in "
                            + "versions.operatorstarter.dev/v1 on the API server at https://api)");
                });
            } finally {
                client.apiextensionsV1().customResourceDefinitions().delete(crd.getMetadata().getName());
            }
        }
    }

    @Test
    void aggregatedDiscoveryNeedsTwoRequestsForEverything(ClusterConnection connection) {
        java.util.List<String> paths = new java.util.concurrent.CopyOnWriteArrayList<>();
        var options = dev.operatorstarter.client.rest.ClientOptions.builder()
                .interceptor(org.springframework.web.reactive.function.client.ExchangeFilterFunction.ofRequestProcessor(
                        request -> {
                            paths.add(request.url().getPath());
                            return reactor.core.publisher.Mono.just(request);
                        }))
                .build();
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null),
                options)) {
            int resources = client.discovery().resources().size();
            client.discovery().findKind("apps/v1", "Deployment");

            assertThat(resources).isGreaterThan(40);
            assertThat(paths).containsExactly("/api", "/apis");
        }
    }
}

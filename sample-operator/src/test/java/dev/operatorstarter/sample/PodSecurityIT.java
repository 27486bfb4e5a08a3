package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The pods this project runs meet the {@code restricted} Pod Security Standard, as the real API
 * server's PodSecurity admission judges them in a namespace that enforces it: the operator's pod
 * from the Helm chart, and the web-server pods the operator creates for each site. Pods are only
 * created (the local API server has no kubelet), which is where admission decides.
 */
@KubernetesTest(crds = Examples.CRD)
class PodSecurityIT {

    private static KubernetesClient admin;
    private ResourceClient<Pod> pods;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    @BeforeEach
    void enforceRestricted(TestNamespace namespace) {
        admin.coreV1().namespaces().patch(namespace.name(), PatchType.MERGE, Map.of("metadata", Map.of("labels",
                Map.of("pod-security.kubernetes.io/enforce", "restricted"))));
        pods = admin.coreV1().pods().inNamespace(namespace.name());
    }

    @Test
    void aPodWithoutASecurityContextIsRejectedSoTheCheckCanFail() {
        Pod bare = new PodBuilder().withNewMetadata().withName("bare").endMetadata().withNewSpec().addNewContainer()
                .withName("web").withImage("web:1").endContainer().endSpec().build();

        assertThatThrownBy(() -> pods.create(bare)).isInstanceOf(ApiException.Forbidden.class)
                .hasMessageContaining("violates PodSecurity \"restricted");
    }

    @Test
    void theChartsOperatorPodIsAdmittedUnderRestricted(TestNamespace namespace) {
        Chart.Manifests chart = Chart.render("sites", namespace.name(), Map.of());
        JsonMapper json = JsonMapper.builder().build();
        admin.coreV1().serviceAccounts().inNamespace(namespace.name()) // admission wants the pod's account to exist
                .create(json.treeToValue(chart.one("ServiceAccount"), ServiceAccount.class));
        PodTemplateSpec template = json.treeToValue(chart.one("Deployment").at("/spec/template"), PodTemplateSpec.class);

        Pod created = pods.create(new PodBuilder().withMetadata(template.getMetadata()).editMetadata()
                .withName("operator").endMetadata().withSpec(template.getSpec()).build());

        assertThat(created.getMetadata().getUid()).isNotBlank();
    }

    @Test
    void theWebServerPodsOfASiteAreAdmittedUnderRestricted(TestNamespace namespace) {
        StaticSite site = StaticSite.of("hello", 1, Map.of("index.html", "<h1>Hello</h1>"));
        site.getMetadata().setNamespace(namespace.name());
        site.getMetadata().setUid("00000000-0000-0000-0000-000000000001");
        PodTemplateSpec template = SiteResources.deployment(site, "web:1").getSpec().getTemplate();

        Pod created = pods.create(new PodBuilder().withMetadata(template.getMetadata()).editMetadata()
                .withName("web").endMetadata().withSpec(template.getSpec()).build());

        assertThat(created.getMetadata().getUid()).isNotBlank();
    }
}

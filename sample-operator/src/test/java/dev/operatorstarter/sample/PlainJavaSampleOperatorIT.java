package dev.operatorstarter.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.Conditions;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.event.EventOptions;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sample operator built in plain Java ({@link PlainJavaSampleOperator}: the same reconciler
 * through the runtime's controller builder) against the real API server: a site becomes its owned
 * objects, a status written through the controller's tracked client, and an index entry, which the
 * finalizer removes when the site goes.
 */
@KubernetesTest(crds = Examples.CRD)
class PlainJavaSampleOperatorIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void thePlainJavaOperatorReconcilesASiteAsTheSpringOneDoes(ClusterConnection connection, TestNamespace namespace)
            throws Exception {
        SampleProperties properties = SampleProperties.defaults();
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
                EventBroadcaster events = new EventBroadcaster(client, EventOptions.defaults());
                Manager manager = PlainJavaSampleOperator.build(client, events, properties, "plain-java-it")) {
            manager.start();
            await().atMost(WAIT).until(manager::isActive);
            assertThat(manager.controllers()).singleElement().satisfies(status -> {
                assertThat(status.name()).isEqualTo("staticsite");
                assertThat(status.resource()).isEqualTo("staticsites.sample.operatorstarter.dev");
                assertThat(status.group()).isEqualTo(RunnableGroup.LEADER_TERM);
            });
            ResourceClient<StaticSite> sites = client.resources(StaticSite.class).inNamespace(namespace.name());
            StaticSite created = sites.create(StaticSite.of("plain", 1, Map.of("index.html", "<h1>Plain</h1>")));

            ConfigMap content = await().atMost(WAIT).until(() -> client.coreV1().configMaps()
                    .inNamespace(namespace.name()).find("plain-content"), Optional::isPresent).orElseThrow();
            assertThat(content.getMetadata().getOwnerReferences()).extracting(OwnerReference::getUid)
                    .containsExactly(created.getMetadata().getUid());
            await().atMost(WAIT).until(() -> client.appsV1().deployments().inNamespace(namespace.name())
                    .find("plain").isPresent() && client.coreV1().services().inNamespace(namespace.name())
                    .find("plain").isPresent());
            StaticSiteStatus status = await().atMost(WAIT).until(() -> sites.get("plain").getStatus(),
                    s -> s != null && s.observedGeneration() != null);
            assertThat(status.observedGeneration()).isEqualTo(created.getMetadata().getGeneration());
            assertThat(Conditions.isTrue(status.conditions(), StaticSiteStatus.PROGRESSING)).isTrue();
            assertThat(sites.get("plain").getMetadata().getFinalizers()).containsExactly(StaticSiteReconciler.FINALIZER);
            String key = namespace.name() + "_plain";
            await().atMost(WAIT).until(() -> index(client, properties).containsKey(key));

            sites.delete("plain");

            await().atMost(WAIT).until(() -> sites.find("plain").isEmpty());
            assertThat(index(client, properties)).as("the finalizer's cleanup").doesNotContainKey(key);
        }
    }

    private static Map<String, String> index(KubernetesClient client, SampleProperties properties) {
        return client.coreV1().configMaps().inNamespace(client.config().namespace())
                .find(properties.siteIndex().name()).map(ConfigMap::getData).orElse(Map.of());
    }
}

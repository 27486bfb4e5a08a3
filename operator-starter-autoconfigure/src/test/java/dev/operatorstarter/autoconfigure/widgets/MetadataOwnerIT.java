package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Reconciler(ownsMetadata, ownedLabelSelector)} and {@code operator.informers.resources}
 * against the real API server: the owned Secrets are cached as metadata, only those the selectors
 * let in, and a change to one reconciles its owner.
 */
@KubernetesTest
class MetadataOwnerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void ownedSecretsAreCachedAsMetadataOnlyWhenTheSelectorsLetThemInAndReconcileTheirOwner(
            ClusterConnection connection, TestNamespace namespace) {
        String ns = namespace.name();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            ConfigMap owner = admin.coreV1().configMaps().inNamespace(ns).create(new ConfigMapBuilder()
                    .withNewMetadata().withNamespace(ns).withName("owner").endMetadata().build());
            Secret managed = secret(ns, "managed", Map.of("managed-by", "metadata-owner"), "Opaque");
            OwnerReferences.setController(owner, managed);
            admin.coreV1().secrets().inNamespace(ns).create(managed);
            admin.coreV1().secrets().inNamespace(ns).create(secret(ns, "unlabelled", Map.of(), "Opaque"));
            admin.coreV1().secrets().inNamespace(ns).create(secret(ns, "managed-tls",
                    Map.of("managed-by", "metadata-owner"), "example.com/skipped"));

            try (ConfigurableApplicationContext context = ClusterApplications.run(MetadataOwnerApplication.class,
                    connection, ns, "operator.informers.resources.secrets.field-selector=type!=example.com/skipped")) {
                @SuppressWarnings("unchecked")
                Lister<PartialObjectMetadata> secrets = context.getBean("secretMetadataLister", Lister.class);
                MetadataOwnerApplication.Reconciled reconciled = context.getBean(MetadataOwnerApplication.Reconciled.class);

                await().atMost(WAIT).until(() -> reconciled.names.contains("owner"));
                assertThat(secrets.namespace(ns).list()).extracting(s -> s.getMetadata().getName())
                        .as("the unlabelled one and the one of the skipped type stay out").containsExactly("managed");
                assertThat(secrets.namespace(ns).get("managed")).get()
                        .satisfies(cached -> assertThat(cached.getApiVersion() + " " + cached.getKind())
                                .isEqualTo("v1 Secret"));

                admin.coreV1().secrets().inNamespace(ns).patch("managed",
                        dev.operatorstarter.client.rest.PatchType.MERGE,
                        Map.of("metadata", Map.of("annotations", Map.of("touched", "yes"))));
                // only a reconcile that ran once the metadata cache held the change can see it
                await().atMost(WAIT).until(() -> reconciled.names.contains("owner after the change"));
            }
        }
    }

    private static Secret secret(String namespace, String name, Map<String, String> labels, String type) {
        return new SecretBuilder().withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels)
                .endMetadata().withType(type).addToStringData("k", "v").build();
    }
}

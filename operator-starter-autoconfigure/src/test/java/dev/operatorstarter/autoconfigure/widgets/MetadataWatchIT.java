package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Reconciler(watchesMetadata)} and the {@link ObjectReader} bean against the real API
 * server: a change to a Secret whose metadata alone is cached reconciles the ConfigMap it maps
 * to, and the reconcile reads the Secret's data from the server; {@code operator.reader.uncached}
 * sends the reads of a cached type to the server. Where reads were answered is counted by
 * {@code reader_requests_total}, not timed.
 */
@KubernetesTest
class MetadataWatchIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aChangeToAWatchedSecretCachedAsMetadataReconcilesItsConfigMapWhichReadsTheSecretFromTheServer(
            ClusterConnection connection, TestNamespace namespace) {
        String ns = namespace.name();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            admin.coreV1().configMaps().inNamespace(ns).create(configMap("target"));
            admin.coreV1().secrets().inNamespace(ns).create(secret("target", Map.of("watched", "yes"), "first"));
            admin.coreV1().secrets().inNamespace(ns).create(secret("unlabelled", Map.of(), "other"));

            try (ConfigurableApplicationContext context = ClusterApplications.run(MetadataWatchApplication.class,
                    connection, ns, "operator.informers.resources.secrets.label-selector=watched=yes")) {
                MetadataWatchApplication.Reconciled reconciled = context.getBean(MetadataWatchApplication.Reconciled.class);
                @SuppressWarnings("unchecked")
                Lister<PartialObjectMetadata> secrets = context.getBean("secretMetadataLister", Lister.class);

                await().atMost(WAIT).until(() -> reconciled.seen.contains("target: first"));
                assertThat(secrets.namespace(ns).list()).as("the selector of operator.informers.resources applies")
                        .extracting(s -> s.getMetadata().getName()).containsExactly("target");
                assertThat(secrets.namespace(ns).get("target")).get()
                        .satisfies(cached -> assertThat(cached.getApiVersion() + " " + cached.getKind())
                                .isEqualTo("v1 Secret"));

                admin.coreV1().secrets().inNamespace(ns).patch("target", PatchType.MERGE,
                        Map.of("stringData", Map.of("value", "second")));
                // only a reconcile the Secret's change started, reading the Secret from the server, sees this
                await().atMost(WAIT).until(() -> reconciled.seen.contains("target: second"));

                MeterRegistry meters = context.getBean(MeterRegistry.class);
                assertThat(reads(meters, "configmaps", "cache")).as("the primary, cached in full").isPositive();
                assertThat(reads(meters, "configmaps", "api")).isZero();
                assertThat(reads(meters, "secrets", "api")).as("cached as metadata only").isGreaterThanOrEqualTo(2);
                assertThat(reads(meters, "secrets", "cache")).isZero();
            }
        }
    }

    @Test
    void aResourceListedAsUncachedIsReadFromTheServerThoughAReconcilerCachesIt(ClusterConnection connection,
            TestNamespace namespace) {
        String ns = namespace.name();
        try (KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            admin.coreV1().configMaps().inNamespace(ns).create(configMap("target"));
            admin.coreV1().secrets().inNamespace(ns).create(secret("target", Map.of(), "first"));

            try (ConfigurableApplicationContext context = ClusterApplications.run(MetadataWatchApplication.class,
                    connection, ns, "operator.reader.uncached=configmaps")) {
                MetadataWatchApplication.Reconciled reconciled = context.getBean(MetadataWatchApplication.Reconciled.class);
                await().atMost(WAIT).until(() -> reconciled.seen.contains("target: first"));
                assertThat(context.getBean(ObjectReader.class).get(ConfigMap.class, ns, "target")).isPresent();

                MeterRegistry meters = context.getBean(MeterRegistry.class);
                assertThat(reads(meters, "configmaps", "api")).isGreaterThanOrEqualTo(2);
                assertThat(reads(meters, "configmaps", "cache")).as("though the primary informer has synced").isZero();
            }
        }
    }

    private static double reads(MeterRegistry meters, String resource, String source) {
        return meters.find("reader.requests").tags("resource", resource, "verb", "get", "source", source).counters()
                .stream().mapToDouble(Counter::count).sum();
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", "v").build();
    }

    private static Secret secret(String name, Map<String, String> labels, String value) {
        return new SecretBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .addToStringData("value", value).build();
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The {@link ObjectReader} against the real API server. Where a read was answered is proven
 * without timing: a cache read returns the informer's own instance (the server's answers are
 * decoded afresh each time), and {@code reader_requests_total} counts each read by its source.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class ObjectReaderIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    @Test
    void aCachedTypeIsReadFromItsInformerAndATypeNothingInformsOnFromTheServer(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        client.coreV1().configMaps().inNamespace(ns).create(configMap("cached", Map.of("test", "reader")));
        MeterRegistry meters = new SimpleMeterRegistry();
        ObjectReader reader;
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class, InformerScope.namespace(ns));
            reader = ObjectReader.of(factory, ReaderOptions.builder().metrics(ReaderMetrics.micrometer(meters)).build());
            factory.start();
            factory.waitForCacheSync(WAIT);

            ConfigMap cached = configMaps.lister().namespace(ns).get("cached").orElseThrow();
            assertThat(reader.get(ConfigMap.class, ns, "cached")).get().as("the cache's own instance").isSameAs(cached);
            assertThat(reader.list(ConfigMap.class, ns, LabelSelector.parse("test=reader"))).singleElement().isSameAs(cached);
            assertThat(reader.get(ConfigMap.class, ns, "missing")).as("a cache without selectors knows it is absent")
                    .isEmpty();

            client.coreV1().secrets().inNamespace(ns).create(secret("fresh"));
            assertThat(reader.get(Secret.class, ns, "fresh")).as("created after the caches synced, read at once")
                    .isPresent();
            assertThat(reader.list(Secret.class, ns)).extracting(s -> s.getMetadata().getName()).contains("fresh");

            assertThat(reads(meters, "configmaps", "get", "cache")).isEqualTo(2);
            assertThat(reads(meters, "configmaps", "list", "cache")).isEqualTo(1);
            assertThat(reads(meters, "configmaps", "get", "api")).isZero();
            assertThat(reads(meters, "secrets", "get", "api")).isEqualTo(1);
            assertThat(reads(meters, "secrets", "list", "api")).isEqualTo(1);
        }
        assertThat(reader.get(ConfigMap.class, ns, "cached")).as("the factory is closed: from the server").isPresent();
        assertThat(reads(meters, "configmaps", "get", "api")).isEqualTo(1);
    }

    @Test
    void anInformerMadeAfterTheReaderAnswersOnceSyncedAndAStoppedOneNoLonger(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        client.coreV1().configMaps().inNamespace(ns).create(configMap("cached", Map.of()));
        MeterRegistry meters = new SimpleMeterRegistry();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            ObjectReader reader = ObjectReader.of(factory, ReaderOptions.builder()
                    .metrics(ReaderMetrics.micrometer(meters)).build());
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class, InformerScope.namespace(ns));
            factory.start();
            factory.waitForCacheSync(WAIT);
            ConfigMap cached = configMaps.lister().namespace(ns).get("cached").orElseThrow();
            assertThat(reader.get(ConfigMap.class, ns, "cached")).get().as("made after the reader, used once synced")
                    .isSameAs(cached);

            configMaps.stop();
            assertThat(reader.get(ConfigMap.class, ns, "cached")).get().as("stopped: from the server")
                    .isNotSameAs(cached);
            assertThat(reads(meters, "configmaps", "get", "cache")).isEqualTo(1);
            assertThat(reads(meters, "configmaps", "get", "api")).isEqualTo(1);
        }
    }

    @Test
    void aClusterScopedTypeIsReadWithTheEmptyNamespaceFromItsInformerOrTheServer(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        MeterRegistry meters = new SimpleMeterRegistry();
        ObjectReader reader;
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<Namespace> namespaces = factory.informerFor(Namespace.class);
            reader = ObjectReader.of(factory, ReaderOptions.builder().metrics(ReaderMetrics.micrometer(meters)).build());
            factory.start();
            factory.waitForCacheSync(WAIT);
            Namespace cached = namespaces.lister().get(ns).orElseThrow();

            assertThat(reader.get(Namespace.class, "", ns)).get().as("the cache's own instance").isSameAs(cached);
            assertThat(reader.list(Namespace.class, "")).as("the cache's own instances").contains(cached);
            assertThat(reads(meters, "namespaces", "get", "cache")).isEqualTo(1);
            assertThat(reads(meters, "namespaces", "list", "cache")).isEqualTo(1);
        }
        assertThat(reader.get(Namespace.class, "", ns)).get().as("the factory is closed: from the server")
                .satisfies(found -> assertThat(found.getMetadata().getName()).isEqualTo(ns));
        assertThat(reads(meters, "namespaces", "get", "api")).isEqualTo(1);
    }

    @Test
    void aTypeMarkedUncachedIsReadFromTheServerEvenWhileAnInformerCachesIt(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        MeterRegistry meters = new SimpleMeterRegistry();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class, InformerScope.namespace(ns));
            ObjectReader reader = ObjectReader.of(factory, ReaderOptions.builder().uncached(ConfigMap.class)
                    .metrics(ReaderMetrics.micrometer(meters)).build());
            factory.start();
            factory.waitForCacheSync(WAIT);

            client.coreV1().configMaps().inNamespace(ns).create(configMap("created-after-sync", Map.of("test", "reader")));
            assertThat(reader.get(ConfigMap.class, ns, "created-after-sync")).as("the server answers at once")
                    .isPresent();
            ConfigMap cached = await().atMost(WAIT)
                    .until(() -> configMaps.lister().namespace(ns).get("created-after-sync"), found -> found.isPresent())
                    .orElseThrow();
            assertThat(reader.get(ConfigMap.class, ns, "created-after-sync")).get().isNotSameAs(cached);
            assertThat(reader.list(ConfigMap.class, ns, LabelSelector.parse("test=reader"))).singleElement()
                    .isNotSameAs(cached);

            assertThat(reads(meters, "configmaps", "get", "api")).isEqualTo(2);
            assertThat(reads(meters, "configmaps", "list", "api")).isEqualTo(1);
            assertThat(meters.find("reader.requests").tag("source", "cache").counters()).isEmpty();
        }
    }

    @Test
    void aCacheAnswersOnlyTheReadsItHoldsInFullAndTheServerTheRest(KubernetesClient client,
            TestNamespace first) throws Exception {
        String ns = first.name();
        String other = ns + "-b";
        client.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(other).endMetadata()
                .build());
        MeterRegistry meters = new SimpleMeterRegistry();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps();
            configMaps.inNamespace(ns).create(configMap("web", Map.of("app", "web", "tier", "db")));
            configMaps.inNamespace(ns).create(configMap("plain", Map.of()));
            configMaps.inNamespace(other).create(configMap("elsewhere", Map.of()));
            SharedIndexInformer<ConfigMap> webOnly = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(ns).withLabelSelector("app=web"));
            ObjectReader reader = ObjectReader.of(factory, ReaderOptions.builder()
                    .metrics(ReaderMetrics.micrometer(meters)).build());
            factory.start();
            factory.waitForCacheSync(WAIT);
            ConfigMap web = webOnly.lister().namespace(ns).get("web").orElseThrow();

            assertThat(reader.get(ConfigMap.class, ns, "web")).get().as("held by the selected cache").isSameAs(web);
            assertThat(reader.get(ConfigMap.class, ns, "plain")).as("outside the selector: asked the server")
                    .isPresent();
            assertThat(reader.get(ConfigMap.class, other, "elsewhere")).as("another namespace: asked the server")
                    .isPresent();
            assertThat(reader.list(ConfigMap.class, ns, LabelSelector.parse("tier=db,app=web")))
                    .as("narrower than the cache's selector").singleElement().isSameAs(web);
            assertThat(reader.list(ConfigMap.class, ns, LabelSelector.parse("tier=db")))
                    .as("wider than the cache's selector").singleElement().isNotSameAs(web);
            assertThat(reader.list(ConfigMap.class, ns)).extracting(c -> c.getMetadata().getName())
                    .contains("web", "plain");
            assertThat(reader.list(ConfigMap.class, "")).as("every namespace: no cache covers them")
                    .extracting(c -> c.getMetadata().getName()).contains("web", "plain", "elsewhere");

            assertThat(reads(meters, "configmaps", "get", "cache")).isEqualTo(1);
            assertThat(reads(meters, "configmaps", "get", "api")).isEqualTo(2);
            assertThat(reads(meters, "configmaps", "list", "cache")).isEqualTo(1);
            assertThat(reads(meters, "configmaps", "list", "api")).isEqualTo(3);
        } finally {
            client.coreV1().namespaces().delete(other);
        }
    }

    private static double reads(MeterRegistry meters, String resource, String verb, String source) {
        Counter counter = meters.find("reader.requests").tags("resource", resource, "verb", verb, "source", source)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    private static ConfigMap configMap(String name, Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                .addToData("k", "v").build();
    }

    private static Secret secret(String name) {
        return new SecretBuilder().withNewMetadata().withName(name).endMetadata().addToStringData("k", "v").build();
    }
}

package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ListerWatcher;
import dev.operatorstarter.cache.ReflectorException;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An informer whose watch meets an event over {@link ClientOptions#maxWatchEventBytes()}, against
 * the real API server (a small limit makes an ordinary object too large): the error is reported
 * naming the request and the limit, the watch is retried by the reflector's usual rules, and the
 * cache holds only whole objects.
 */
@KubernetesTest
class WatchEventLimitIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int LIMIT = 4 * 1024;

    private KubernetesClient admin;
    private KubernetesClient limited;
    private ResourceClient<ConfigMap> configMaps;
    private String namespace;
    private final List<ReflectorException> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void connect(ClusterConnection connection, TestNamespace namespace) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        limited = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null),
                ClientOptions.builder().maxWatchEventBytes(LIMIT).build());
        this.namespace = namespace.name();
        configMaps = admin.coreV1().configMaps().inNamespace(this.namespace);
    }

    @AfterEach
    void close() {
        limited.close();
        admin.close();
    }

    private static ConfigMap configMap(String name, int bytes) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("app", "limit-it").endMetadata()
                .addToData("value", "v".repeat(bytes)).build();
    }

    private static Map<String, String> cached(SharedIndexInformer<ConfigMap> informer) {
        return informer.indexer().list().stream().collect(Collectors.toMap(c -> c.getMetadata().getName(),
                c -> c.getData().get("value")));
    }

    @Test
    void aWatchEventOverTheLimitIsReportedNamingTheRequestAndRetriedWithTheCacheIntact() {
        configMaps.create(configMap("small", 10));
        try (SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps",
                ListerWatcher.of(limited.coreV1().configMaps().inNamespace(namespace), "app=limit-it", null),
                ConfigMap.class, InformerOptions.builder().reflector(ReflectorOptions.builder()
                        .initialBackoff(Duration.ofMillis(100)).errorHandler(errors::add).build()).build())) {
            informer.start();
            await().atMost(WAIT).until(() -> informer.hasSynced() && informer.isWatching());
            configMaps.create(configMap("changed-first", 10));
            await().atMost(WAIT).until(() -> cached(informer).containsKey("changed-first"));

            configMaps.create(configMap("big", 2 * LIMIT));

            await().atMost(WAIT).until(() -> errors.size() >= 2); // reported, and met again on the retried watch
            assertThat(errors).allSatisfy(error -> assertThat(error).hasMessageContaining("/api/v1/namespaces/"
                    + namespace + "/configmaps").hasMessageContaining("exceeded the 4 KiB limit of one watch event "
                    + "(ClientOptions.maxWatchEventBytes)"));
            assertThat(cached(informer)).containsOnly(Map.entry("small", "v".repeat(10)),
                    Map.entry("changed-first", "v".repeat(10)));
        }
    }
}

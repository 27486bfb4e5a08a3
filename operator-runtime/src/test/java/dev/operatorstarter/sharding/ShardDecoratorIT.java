package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A shard's controller against the real API server, its informer selecting the shard's token as
 * a sharded controller's does: a drain request gets through a filter that drops label changes and
 * is acknowledged instead of reconciled, and the
 * object's leaving the cache is not reported as a deletion; a real deletion still is; a moved-in
 * object waits for its children.
 */
@KubernetesTest
@ExtendWith(AdminClientExtension.class)
class ShardDecoratorIT {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ShardLabels LABELS = new ShardLabels("decorated", "shard-a");
    private static KubernetesClient client;
    private SharedInformerFactory factory;
    private Controller<ConfigMap> controller;
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private final AtomicInteger childrenHeld = new AtomicInteger();
    private final AtomicInteger childrenAsked = new AtomicInteger();
    private final AtomicInteger acks = new AtomicInteger();

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(10));
        }
        if (factory != null) {
            factory.close();
        }
    }

    private void start(TestNamespace namespace) throws InterruptedException {
        factory = new SharedInformerFactory(client, InformerOptions.defaults());
        SharedIndexInformer<ConfigMap> primaries = factory.informerFor(ConfigMap.class,
                InformerScope.namespace(namespace.name()).withLabelSelector(LABELS.selector()));
        factory.start();
        ShardDecorator<ConfigMap> decorator = new ShardDecorator<>(LABELS,
                client.coreV1().configMaps().withDeadline(Duration.ofSeconds(5)),
                new ArrivalCheck(Duration.ofSeconds(20), TimeSource.system()), (key, resource) -> {
                    childrenAsked.incrementAndGet();
                    return "configmaps".equals(resource) ? childrenHeld.get() : 0;
                }, acks::incrementAndGet);
        controller = Controller.builder(ControllerOptions.builder("sharded").workers(1)
                .rateLimiter(RateLimiter.exponential(Duration.ofMillis(5), Duration.ofMillis(200))).build(),
                ResourceType.of(ConfigMap.class), primaries)
                // drops every label change: the drain request must get through all the same
                .withFilter(EventFilter.generationChanged())
                .decoratedBy(decorator).build(request -> {
                    reconciled.add(request.name() + (primaries.indexer().get(request.key()).isPresent() ? "" : " (gone)"));
                    return ReconcileResult.done();
                });
        controller.start();
    }

    @Test
    void aDrainRequestPassesTheFilterIsAcknowledgedNotReconciledAndItsDepartureIsNoDeletion(TestNamespace namespace)
            throws InterruptedException {
        start(namespace);
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(mine("moving", Map.of()));
        configMaps.create(mine("deleted", Map.of()));
        await().atMost(WAIT).until(() -> reconciled.containsAll(List.of("moving", "deleted")));

        configMaps.patch("moving", PatchType.MERGE, Map.of("metadata", Map.of("labels", Map.of(LABELS.drain(), "true"))));

        // the decorator counts its acknowledgement once the server has answered it
        await().atMost(WAIT).until(() -> (configMaps.get("moving").getMetadata().getLabels() == null
                || !configMaps.get("moving").getMetadata().getLabels().containsKey(LABELS.token())) && acks.get() > 0);
        assertThat(configMaps.get("moving").getMetadata().getLabels()).doesNotContainKey(LABELS.drain());
        assertThat(acks).hasValue(1);
        configMaps.delete("deleted");
        await().atMost(WAIT).until(() -> reconciled.contains("deleted (gone)"));
        // one worker, requests in order: the departure of "moving" came before the deletion
        assertThat(reconciled).containsExactly("moving", "deleted", "deleted (gone)");
    }

    @Test
    void aMovedInObjectIsReconciledOnlyOnceItsAnnouncedChildrenAreHeld(TestNamespace namespace)
            throws InterruptedException {
        start(namespace);
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(mine("arrived", Map.of(LABELS.arrival(), "configmaps=1")));

        await().atMost(WAIT).until(() -> childrenAsked.get() >= 3);
        assertThat(reconciled).as("waiting for its child").isEmpty();

        childrenHeld.set(1);

        await().atMost(WAIT).until(() -> reconciled.contains("arrived"));
        assertThat(reconciled).containsExactly("arrived");
    }

    private static ConfigMap mine(String name, Map<String, String> annotations) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels(LABELS.token(), LABELS.shardId())
                .addToAnnotations(annotations).endMetadata().build();
    }
}

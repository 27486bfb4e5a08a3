package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.cache.Indexer;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The finalizer guard around a reconciler, on a cache and a client that records its patches. */
class FinalizersHandlerTest {

    private static final String FINALIZER = "example.com/cleanup";

    private final Indexer<ConfigMap> cache = Indexer.create();
    private final List<String> calls = new CopyOnWriteArrayList<>();
    private final List<Object> patches = new CopyOnWriteArrayList<>();
    private final ReconcileHandler<ConfigMap> handler = Finalizers.handler(FINALIZER, request -> {
        calls.add("reconcile " + request.name());
        return ReconcileResult.done();
    }, object -> calls.add("cleanup " + object.getMetadata().getName()), Lister.of(cache), this::recording);

    @SuppressWarnings("unchecked")
    private ResourceClient<ConfigMap> recording() {
        return (ResourceClient<ConfigMap>) Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] {ResourceClient.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "inNamespace" -> proxy;
                    case "patch" -> {
                        patches.add(args[2]);
                        yield null;
                    }
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static ConfigMap configMap(String name, boolean deleting, String... finalizers) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withResourceVersion("7")
                .withDeletionTimestamp(deleting ? "2026-01-01T00:00:00Z" : null).withFinalizers(finalizers)
                .endMetadata().build();
    }

    @Test
    void theFinalizerIsAddedBeforeTheFirstReconcileWithTheVersionItWasReadAt() throws Exception {
        cache.add(configMap("a", false));
        handler.reconcile(new ReconcileRequest("ns", "a"));
        assertThat(patches).containsExactly(Map.of("metadata", Map.of("resourceVersion", "7", "finalizers",
                List.of(FINALIZER))));
        assertThat(calls).containsExactly("reconcile a");
    }

    @Test
    void anObjectBeingDeletedIsCleanedUpInsteadOfReconciledThenLetGo() throws Exception {
        cache.add(configMap("a", true, "other.io/keep", FINALIZER));
        assertThat(handler.reconcile(new ReconcileRequest("ns", "a"))).isEqualTo(ReconcileResult.done());
        assertThat(calls).containsExactly("cleanup a");
        assertThat(patches).containsExactly(Map.of("metadata", Map.of("resourceVersion", "7", "finalizers",
                List.of("other.io/keep"))));
    }

    @Test
    void removingTheFinalizerOfAnObjectAlreadyGoneIsNotAnError() throws Exception {
        cache.add(configMap("a", true, FINALIZER)); // the cache has not seen the first removal yet
        ReconcileHandler<ConfigMap> gone = Finalizers.handler(FINALIZER, request -> ReconcileResult.done(),
                object -> calls.add("cleanup " + object.getMetadata().getName()), Lister.of(cache), () -> answering(
                        ApiException.fromStatus(new StatusBuilder().withCode(404).withReason("NotFound").build(),
                                "PATCH configmaps/a")));

        assertThat(gone.reconcile(new ReconcileRequest("ns", "a"))).isEqualTo(ReconcileResult.done());
        assertThat(calls).containsExactly("cleanup a");
    }

    @SuppressWarnings("unchecked")
    private static ResourceClient<ConfigMap> answering(ApiException failure) {
        return (ResourceClient<ConfigMap>) Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] {ResourceClient.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "inNamespace" -> proxy;
                    case "patch" -> throw failure;
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aFailedCleanupKeepsTheFinalizerSoItIsRetried() {
        cache.add(configMap("a", true, FINALIZER));
        ReconcileHandler<ConfigMap> failing = Finalizers.handler(FINALIZER, request -> ReconcileResult.done(),
                object -> {
                    throw new IllegalStateException("the bucket is still there");
                }, Lister.of(cache), this::recording);
        assertThatThrownBy(() -> failing.reconcile(new ReconcileRequest("ns", "a")))
                .hasMessageContaining("bucket");
        assertThat(patches).isEmpty();
    }

    @Test
    void anObjectGoneFromTheCacheGoesStraightToTheReconciler() throws Exception {
        handler.reconcile(new ReconcileRequest("ns", "gone"));
        assertThat(calls).containsExactly("reconcile gone");
        assertThat(patches).isEmpty();
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.Injection;
import dev.operatorstarter.test.faults.RequestMatcher;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bodies the API server would never send, played by the fault proxy in front of the real one: a
 * list cut short, a watch event that is not JSON, a watch stream cut in the middle of an event. The
 * informer reports each (naming the request), loses nothing, and its cache ends equal to the server.
 */
@KubernetesTest
class InformerBadBodiesIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private FaultProxy proxy;
    private KubernetesClient admin;
    private KubernetesClient proxied;
    private ResourceClient<ConfigMap> configMaps;
    private String namespace;
    private String path;
    private final List<ReflectorException> errors = new CopyOnWriteArrayList<>();

    @BeforeEach
    void connect(ClusterConnection connection, TestNamespace namespace) {
        proxy = FaultProxy.start(connection);
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        proxied = KubernetesClient.create(KubeconfigLoader.load(proxy.connection().kubeconfig(), null));
        configMaps = admin.coreV1().configMaps().inNamespace(namespace.name());
        IntStream.range(0, 10).forEach(i -> configMaps.create(InformerIT.configMap("cm-" + i, "v0")));
        this.namespace = namespace.name();
        path = "/api/v1/namespaces/" + this.namespace + "/configmaps";
    }

    @AfterEach
    void close() {
        proxied.close();
        admin.close();
        proxy.close();
    }

    private SharedIndexInformer<ConfigMap> informer() {
        // Paginated lists, so that the list is a plain JSON body the proxy can cut short.
        return SharedIndexInformer.create("configmaps", ListerWatcher.of(proxied.coreV1().configMaps()
                .inNamespace(namespace), "app=informer-it", null), ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false)
                        .initialBackoff(Duration.ofMillis(100)).errorHandler(errors::add).build()).build());
    }

    private void assertCaughtUp(SharedIndexInformer<ConfigMap> informer) {
        await().atMost(WAIT).until(() -> InformerIT.cacheState(informer).equals(InformerIT.serverState(configMaps)));
        await().atMost(WAIT).until(informer::isWatching);
    }

    private void change(int from, int to) {
        IntStream.range(from, to).forEach(i -> {
            ConfigMap changed = configMaps.get("cm-" + i);
            changed.getData().put("value", "v" + System.nanoTime());
            configMaps.update(changed);
        });
    }

    @Test
    void aListCutShortIsReportedAndListedAgain() {
        Injection truncated = proxy.inject(RequestMatcher.pathPrefix(path).method("GET").excludingWatches(),
                Fault.truncatedBody(), 1);
        try (SharedIndexInformer<ConfigMap> informer = informer()) {
            informer.start();

            await().atMost(WAIT).until(informer::hasSynced);
            assertThat(truncated.matched()).isEqualTo(1);
            assertThat(errors).anySatisfy(error -> assertThat(error).hasMessageContaining("GET")
                    .hasMessageContaining(path));
            change(0, 5);
            assertCaughtUp(informer);
        }
    }

    @Test
    void aWatchEventThatIsNotJsonIsReportedAndTheWatchReopenedFromTheLastGoodVersion() {
        try (SharedIndexInformer<ConfigMap> informer = informer()) {
            informer.start();
            await().atMost(WAIT).until(() -> informer.hasSynced() && informer.isWatching());
            Injection malformed = proxy.inject(RequestMatcher.pathPrefix(path).watchesOnly(), Fault.malformedAfterEvents(1), 1);
            proxy.cutConnections(); // the watch reopens through the fault

            await().atMost(WAIT).until(() -> malformed.matched() == 1);
            change(0, 5);
            await().atMost(WAIT).until(() -> !errors.isEmpty());
            change(5, 10);
            assertCaughtUp(informer);
            assertThat(errors).anySatisfy(error -> assertThat(error).hasMessageContaining(path));
        }
    }

    static Stream<Fault> cuts() {
        // The connection closed abruptly mid-event, and a response that ends properly mid-event.
        return Stream.of(Fault.cutAfterEvents(2), Fault.truncatedAfterEvents(2));
    }

    @ParameterizedTest
    @MethodSource("cuts")
    void aWatchCutInTheMiddleOfAnEventLosesNothing(Fault fault) {
        try (SharedIndexInformer<ConfigMap> informer = informer()) {
            informer.start();
            await().atMost(WAIT).until(() -> informer.hasSynced() && informer.isWatching());
            Injection cut = proxy.inject(RequestMatcher.pathPrefix(path).watchesOnly(), fault, 1);
            proxy.cutConnections();

            await().atMost(WAIT).until(() -> cut.matched() == 1);
            change(0, 10);
            assertCaughtUp(informer);
        }
    }
}

package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchServerTest {

    private static final int EVENTS = 5;

    @TempDir
    Path directory;

    private WatchServer server;

    @BeforeEach
    void start() throws IOException {
        server = WatchServer.start();
        server.serve(DecodeBenchmark.watchStream(EVENTS));
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    @Test
    void fabric8sInformerReceivesEveryEventOverAWebSocketWhereTheServerAcceptsTheUpgrade() throws Exception {
        assertThat(fabric8Adds(WatchTransport.WEBSOCKET)).isEqualTo(EVENTS);

        WatchServer.Traffic traffic = server.traffic();
        assertThat(traffic.events()).contains(WatchTransport.WEBSOCKET);
        assertThat(traffic.streamedWatches()).isZero();
        assertThat(traffic.refusedUpgrades()).isZero();
    }

    @Test
    void fabric8sInformerFallsBackToHttpStreamingWhereTheServerRefusesTheUpgrade() throws Exception {
        assertThat(fabric8Adds(WatchTransport.HTTP_STREAMING)).isEqualTo(EVENTS);

        WatchServer.Traffic traffic = server.traffic();
        assertThat(traffic.events()).contains(WatchTransport.HTTP_STREAMING);
        assertThat(traffic.refusedUpgrades()).isPositive();
        assertThat(traffic.webSocketWatches()).isZero();
    }

    @Test
    void aWebSocketWatchSendsEachEventAsOneTextMessageThenClosesNormally() throws Exception {
        List<String> messages = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        HttpClient client = HttpClient.newHttpClient();
        client.newWebSocketBuilder().buildAsync(URI.create(serverUri(WatchTransport.WEBSOCKET).replace("http:", "ws:")
                + "/api/v1/namespaces/bench/configmaps?watch=true"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        messages.add(data.toString());
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);

        assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
        assertThat(messages).hasSize(EVENTS).allSatisfy(message -> assertThat(message)
                .startsWith("{").endsWith("}").doesNotContain("\n").contains("\"type\":\"ADDED\""));
    }

    @Test
    void theWebSocketPortRefusesAPlainWatchSoNoClientCanFallBackToHttpThere() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        String base = serverUri(WatchTransport.WEBSOCKET) + "/api/v1/namespaces/bench/configmaps";

        HttpResponse<String> list = client.send(HttpRequest.newBuilder(URI.create(base)).build(), BodyHandlers.ofString());
        HttpResponse<String> watch = client.send(HttpRequest.newBuilder(URI.create(base + "?watch=true")).build(),
                BodyHandlers.ofString());

        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).contains("\"kind\":\"ConfigMapList\"");
        assertThat(watch.statusCode()).isEqualTo(400);
        assertThat(server.traffic().events()).isEmpty();
    }

    /** Runs fabric8's informer on the port of {@code transport} until it has seen every event (or 30 s have passed). */
    private long fabric8Adds(WatchTransport transport) throws Exception {
        CountDownLatch adds = new CountDownLatch(EVENTS);
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(
                Files.readString(server.kubeconfig(directory.resolve("kubeconfig"), transport)))).build();
                SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("bench")
                        .inform(new ResourceEventHandler<>() {
                            @Override
                            public void onAdd(ConfigMap object) {
                                adds.countDown();
                            }

                            @Override
                            public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
                            }

                            @Override
                            public void onDelete(ConfigMap object, boolean deletedFinalStateUnknown) {
                            }
                        })) {
            adds.await(30, TimeUnit.SECONDS);
            return EVENTS - adds.getCount();
        }
    }

    private String serverUri(WatchTransport transport) throws IOException {
        String kubeconfig = Files.readString(server.kubeconfig(directory.resolve("kubeconfig"), transport));
        int start = kubeconfig.indexOf("http://");
        return kubeconfig.substring(start, kubeconfig.indexOf('"', start));
    }
}

package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.FaultServer.Reply;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.ConfigMapListBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JavaType;

/**
 * The limits on what one response may make the client hold in memory: one watch event, one
 * response, one list. Played by an in-process server, since a real API server will not send a
 * 20 MiB watch line on demand.
 */
class ResponseLimitsTest {

    private static final int MIB = 1024 * 1024;
    private static final JavaType CONFIG_MAP_TYPE = Json.MAPPER.constructType(ConfigMap.class);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private FaultServer server;
    private RestClient rest;

    @AfterEach
    void stop() throws Exception {
        if (rest != null) {
            rest.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private RestClient connect(FaultServer fault, ClientOptions options) {
        server = fault.start();
        rest = RestClient.create(new ClientConfig(fault.uri(), TlsSettings.defaults(), Credentials.none(), null,
                "default", "test"), options.toBuilder().maxRetries(2).retryBackoff(Duration.ofMillis(10))
                        .maxRetryDelay(Duration.ofMillis(50)).build());
        return rest;
    }

    private static ConfigMap configMap(String name, int dataBytes) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .addToData("file", "x".repeat(dataBytes)).build();
    }

    private static String event(String type, Object object) {
        return "{\"type\":\"" + type + "\",\"object\":" + Json.MAPPER.writeValueAsString(object) + "}\n";
    }

    /** A chunked 200 that sends {@code before}, then a line of {@code lineBytes} bytes in 64 KiB chunks, then ends. */
    private static Reply watchWithLongLine(String before, long lineBytes) {
        Reply head = Reply.cutStream(before);
        byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        byte[] framed = chunked(chunk);
        return new Reply(head.bytes(), true, out -> {
            for (long sent = 0; sent < lineBytes; sent += chunk.length) {
                out.write(framed);
            }
            out.write(chunked("\n".getBytes(StandardCharsets.US_ASCII)));
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        });
    }

    private static byte[] chunked(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(bytes);
        out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private static Request configMaps(RestClient rest) {
        return rest.get().groupVersion("", "v1").namespace("default").resource("configmaps");
    }

    @Test
    void aWatchLineOverTheDefaultLimitEndsTheWatchNamingTheRequestAndTheLimit() throws Exception {
        ConfigMap first = configMap("first", 10);
        RestClient client = connect(new FaultServer(request -> watchWithLongLine(event("ADDED", first), 20L * MIB)),
                ClientOptions.defaults());
        List<WatchEvent<ConfigMap>> received = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> configMaps(client).<ConfigMap>watch(CONFIG_MAP_TYPE).doOnNext(received::add)
                .blockLast(WAIT))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageStartingWith("watch event on GET " + server.uri() + "/api/v1/namespaces/default/configmaps")
                .hasMessageContaining("watch=true")
                .hasMessageEndingWith("exceeded the 16 MiB limit of one watch event (ClientOptions.maxWatchEventBytes)");
        assertThat(received).containsExactly(new WatchEvent.Added<>(first));
        assertThat(server.requests()).as("not retried").hasSize(1);
    }

    @Test
    void aLargeWatchEventUnderTheDefaultLimitDecodes() throws Exception {
        ConfigMap large = configMap("large", 12 * MIB);
        ConfigMap small = configMap("small", 10);
        String events = event("ADDED", large) + event("MODIFIED", small);
        RestClient client = connect(new FaultServer(request -> Reply.stream(events)), ClientOptions.defaults());

        List<WatchEvent<ConfigMap>> received = configMaps(client).<ConfigMap>watch(CONFIG_MAP_TYPE).collectList()
                .block(WAIT);

        assertThat(received).containsExactly(new WatchEvent.Added<>(large), new WatchEvent.Modified<>(small));
    }

    @Test
    void aResponseOverTheDefaultLimitFailsNamingTheRequestAndTheLimitAndIsNotRetried() throws Exception {
        String body = Json.MAPPER.writeValueAsString(configMap("x", 17 * MIB));
        RestClient client = connect(new FaultServer(request -> Reply.json(200, body)), ClientOptions.defaults());

        assertThatThrownBy(() -> configMaps(client).name("x").execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessage("response to GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x exceeded the "
                        + "16 MiB limit (ClientOptions.maxResponseBytes)");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aResponseUnderTheLimitDecodes() throws Exception {
        ConfigMap large = configMap("x", 12 * MIB);
        String body = Json.MAPPER.writeValueAsString(large);
        RestClient client = connect(new FaultServer(request -> Reply.json(200, body)), ClientOptions.defaults());

        assertThat(configMaps(client).name("x").execute(ConfigMap.class)).isEqualTo(large);
    }

    @Test
    void rawBytesAndErrorBodiesAreHeldToTheSameLimit() throws Exception {
        String body = Json.MAPPER.writeValueAsString(configMap("x", 2 * MIB));
        RestClient client = connect(new FaultServer(request -> request.method().equals("DELETE")
                ? Reply.json(200, body) : Reply.json(500, body)), ClientOptions.builder().maxResponseBytes(MIB).build());

        assertThatThrownBy(() -> configMaps(client).name("x").execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessage("response to GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x exceeded the "
                        + "1 MiB limit (ClientOptions.maxResponseBytes)");
        assertThatThrownBy(() -> client.delete().groupVersion("", "v1").namespace("default").resource("configmaps")
                .name("x").bytes())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("exceeded the 1 MiB limit (ClientOptions.maxResponseBytes)");
    }

    @Test
    void aListIsHeldToTheListLimitAndNotToTheLimitOfOneResponse() throws Exception {
        ConfigMapList list = new ConfigMapListBuilder().withNewMetadata().withResourceVersion("7").endMetadata()
                .addToItems(configMap("a", MIB), configMap("b", MIB)).build();
        String body = Json.MAPPER.writeValueAsString(list);
        RestClient client = connect(new FaultServer(request -> Reply.json(200, body)), ClientOptions.builder()
                .maxResponseBytes(MIB).build());

        assertThat(configMaps(client).execute(ConfigMapList.class).getItems()).hasSize(2);

        rest.close();
        server.close();
        RestClient limited = connect(new FaultServer(request -> Reply.json(200, body)), ClientOptions.builder()
                .maxListResponseBytes(MIB).build());
        assertThatThrownBy(() -> configMaps(limited).execute(ConfigMapList.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessage("response to GET " + server.uri() + "/api/v1/namespaces/default/configmaps exceeded the "
                        + "1 MiB limit (ClientOptions.maxListResponseBytes)");
    }

    @Test
    void limitsBelowOneByteAreRejectedNamingTheOption() {
        assertThatThrownBy(() -> ClientOptions.builder().maxWatchEventBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxWatchEventBytes must be at least 1 byte, was 0");
        assertThatThrownBy(() -> ClientOptions.builder().maxResponseBytes(-1).build())
                .hasMessage("maxResponseBytes must be at least 1 byte, was -1");
        assertThatThrownBy(() -> ClientOptions.builder().maxListResponseBytes(0).build())
                .hasMessage("maxListResponseBytes must be at least 1 byte, was 0");
        assertThat(ClientOptions.defaults()).extracting(ClientOptions::maxWatchEventBytes, ClientOptions::maxResponseBytes,
                ClientOptions::maxListResponseBytes).containsExactly(16 * MIB, 16 * MIB, Integer.MAX_VALUE);
    }
}

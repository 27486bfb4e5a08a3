package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The kubelet verbs of a Pod on a KWOK node reach KWOK's server through the real API server, as
 * KWOK's resources configure them: raw requests, no client. Local backend only (the nodes are KWOK's).
 */
@KubernetesTest(nodes = 1)
class KubeletVerbsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String KWOK_API = "/apis/kwok.x-k8s.io/v1alpha1/namespaces/";

    private static KubernetesApi api;
    private static ClusterConnection connection;

    @TempDir
    Path temp;

    @BeforeAll
    static void connect(ClusterConnection cluster, KubernetesCluster running) {
        org.junit.jupiter.api.Assumptions.assumeTrue(running.backend() == ClusterBackend.LOCAL,
                "KWOK's resources exist on the local backend only");
        connection = cluster;
        api = KubernetesApi.of(cluster.server(), cluster.sslContext(), cluster.bearerToken());
    }

    @BeforeEach
    void startThePod(TestNamespace namespace) {
        ObjectNode pod = KubernetesApi.object().put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("name", "talker");
        pod.putObject("spec").putArray("containers").addObject().put("name", "web").put("image", "web:1");
        api.post(pods(namespace), pod).orThrow("creating pod talker");
        Eventually.await("pod talker to be Running", TIMEOUT,
                () -> api.get(pods(namespace) + "/talker").orThrow("reading pod talker").path("status").path("phase")
                        .asString(""), "Running"::equals);
    }

    @Test
    void aPodsLogIsTheFileItsLogsResourceNames(TestNamespace namespace) throws Exception {
        Path file = temp.resolve("talker.log");
        // The CRI log format the kubelet reads: time, stream, F(ull line) or P(artial), text.
        Files.writeString(file, "2026-11-28T10:00:00.000000000Z stdout F first line\n"
                + "2026-11-28T10:00:01.000000000Z stderr F second line\n");
        ObjectNode logs = kwokResource("Logs", "talker");
        ObjectNode entry = ((ObjectNode) logs.path("spec")).putArray("logs").addObject();
        entry.putArray("containers").add("web");
        entry.put("logsFile", file.toString());
        api.post(KWOK_API + namespace.name() + "/logs", logs).orThrow("creating Logs talker");

        String log = Eventually.await("the log of pod talker to be served", TIMEOUT,
                () -> api.get(pods(namespace) + "/talker/log?container=web"), r -> r.status() == 200).rawBody();

        assertThat(log).isEqualTo("first line\nsecond line\n");
        assertThat(api.get(pods(namespace) + "/talker/log?container=web&tailLines=1").rawBody())
                .isEqualTo("second line\n");
    }

    @Test
    void execRunsTheCommandItsExecResourceAllowsWithStdoutStderrAndASuccessStatus(TestNamespace namespace) {
        allowExec(namespace);

        Channels result = Eventually.await("exec in pod talker to run", TIMEOUT,
                () -> exec(namespace, "talker", "web", List.of("sh", "-c", "echo out; echo err >&2")),
                channels -> !channels.status().isEmpty());

        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(result.stderr()).isEqualTo("err\n");
        assertThat(KubernetesApi.json().readTree(result.status()).path("status").asString()).isEqualTo("Success");
    }

    /**
     * KWOK v0.8.0 limitation: its local exec wraps the command's exit error, so the kubelet
     * streaming library does not see an exit code; the Status is an InternalError (500) whose
     * message ends with "exit status N", not a NonZeroExitCode with an ExitCode cause as a kubelet
     * sends. A client's exit-code parsing needs another stand-in to be tested.
     */
    @Test
    void aFailingCommandsExitCodeReachesTheClientOnlyInTheStatusMessage(TestNamespace namespace) {
        allowExec(namespace);

        Channels result = Eventually.await("exec in pod talker to fail", TIMEOUT,
                () -> exec(namespace, "talker", "web", List.of("sh", "-c", "echo out; exit 3")),
                channels -> channels.status().contains("Failure"));

        JsonNode status = KubernetesApi.json().readTree(result.status());
        assertThat(result.stdout()).isEqualTo("out\n");
        assertThat(status.path("reason").asString()).isEqualTo("InternalError");
        assertThat(status.path("message").asString()).endsWith("exit status 3");
    }

    private void allowExec(TestNamespace namespace) {
        ObjectNode exec = kwokResource("Exec", "talker");
        ObjectNode target = ((ObjectNode) exec.path("spec")).putArray("execs").addObject();
        target.putArray("containers").add("web");
        target.putObject("local").put("workDir", temp.toString());
        api.post(KWOK_API + namespace.name() + "/execs", exec).orThrow("creating Exec talker");
    }

    /** What the channels of one exec over WebSocket ({@code v5.channel.k8s.io}) carried. */
    record Channels(String stdout, String stderr, String status) {
    }

    /**
     * A minimal exec over WebSocket: each binary message starts with its channel (1 stdout, 2 stderr,
     * 3 the Status). The client's own exec (issue 37, part 2) is the real thing; this proves the path.
     */
    private static Channels exec(TestNamespace namespace, String pod, String container, List<String> command) {
        try {
            return execOrThrow(namespace, pod, container, command);
        } catch (Exception e) {
            throw new IllegalStateException("exec in " + pod + " failed: " + e, e);
        }
    }

    private static Channels execOrThrow(TestNamespace namespace, String pod, String container, List<String> command)
            throws Exception {
        StringBuilder query = new StringBuilder("?container=" + container + "&stdout=true&stderr=true");
        for (String argument : command) {
            query.append("&command=").append(URLEncoder.encode(argument, StandardCharsets.UTF_8));
        }
        URI uri = URI.create("wss://" + connection.server().getAuthority() + pods(namespace) + "/" + pod + "/exec" + query);
        ByteArrayOutputStream[] channels = {new ByteArrayOutputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), new ByteArrayOutputStream()};
        CompletableFuture<Void> closed = new CompletableFuture<>();
        HttpClient http = HttpClient.newBuilder().sslContext(connection.sslContext()).build();
        WebSocket socket = http.newWebSocketBuilder().subprotocols("v5.channel.k8s.io", "v4.channel.k8s.io")
                .connectTimeout(Duration.ofSeconds(10))
                .buildAsync(uri, new WebSocket.Listener() {
                    private ByteArrayOutputStream message = new ByteArrayOutputStream();

                    @Override
                    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
                        byte[] bytes = new byte[data.remaining()];
                        data.get(bytes);
                        message.writeBytes(bytes);
                        if (last) {
                            byte[] whole = message.toByteArray();
                            message = new ByteArrayOutputStream();
                            if (whole.length > 0 && whole[0] >= 1 && whole[0] <= 3) {
                                channels[whole[0]].write(whole, 1, whole.length - 1);
                            }
                        }
                        webSocket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
                        closed.complete(null);
                        return null;
                    }

                    @Override
                    public void onError(WebSocket webSocket, Throwable error) {
                        closed.completeExceptionally(error);
                    }
                }).get(30, TimeUnit.SECONDS);
        try {
            closed.get(30, TimeUnit.SECONDS);
        } finally {
            socket.abort();
        }
        return new Channels(channels[1].toString(StandardCharsets.UTF_8), channels[2].toString(StandardCharsets.UTF_8),
                channels[3].toString(StandardCharsets.UTF_8));
    }

    private static ObjectNode kwokResource(String kind, String name) {
        ObjectNode resource = KubernetesApi.object().put("apiVersion", "kwok.x-k8s.io/v1alpha1").put("kind", kind);
        resource.putObject("metadata").put("name", name);
        resource.putObject("spec");
        return resource;
    }

    private static String pods(TestNamespace namespace) {
        return "/api/v1/namespaces/" + namespace.name() + "/pods";
    }
}

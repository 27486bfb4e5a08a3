package dev.operatorstarter.client.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.WebSocket;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logs, exec, attach and port-forward end to end: through the real kube-apiserver to KWOK's server,
 * which plays the kubelet of the fake node the Pod runs on and does what KWOK's Logs, Exec, Attach
 * and PortForward resources say (a log file, a local process, a local TCP port). The API server
 * translates exec's {@code v5.channel.k8s.io} WebSocket to the kubelet's SPDY, and proxies the
 * port-forward WebSocket as is.
 */
@KubernetesTest(nodes = 1)
@ExtendWith(AdminClientExtension.class)
class PodStreamsIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String KWOK = "kwok.x-k8s.io";

    private KubernetesClient client;
    private String namespace;
    private PodStreams web;

    @BeforeEach
    void runAPod(KubernetesClient client, TestNamespace namespace) {
        this.client = client;
        this.namespace = namespace.name();
        Pod pod = new PodBuilder().withNewMetadata().withName("web").endMetadata()
                .withNewSpec().addNewContainer().withName("nginx").withImage("nginx:1").endContainer().endSpec().build();
        client.coreV1().pods().inNamespace(this.namespace).create(pod);
        Eventually.await("pod web to be Ready", TIMEOUT, () -> client.coreV1().pods().inNamespace(this.namespace)
                .get("web").getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus())));
        this.web = PodStreams.of(client.rest(), this.namespace, "web");
    }

    /** Creates one of KWOK's verb resources for pod web, whose spec has {@code field: [entry]}. */
    private void kwok(String resource, String kind, String field, Map<String, Object> entry) {
        GenericKubernetesResource object = new GenericKubernetesResource();
        object.setApiVersion(KWOK + "/v1alpha1");
        object.setKind(kind);
        object.setMetadata(new ObjectMetaBuilder().withName("web").build());
        object.setAdditionalProperty("spec", Map.of(field, List.of(entry)));
        client.dynamic(new GroupVersionResource(KWOK, "v1alpha1", resource)).inNamespace(namespace).create(object);
    }

    /** A log file in the container runtime's format, which the kubelet (and KWOK) read. */
    private static void appendLog(Path file, String... lines) throws IOException {
        StringBuilder text = new StringBuilder();
        for (String line : lines) {
            text.append(Instant.now()).append(" stdout F ").append(line).append('\n');
        }
        Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void readsTheTailOfAPodsLogAndFollowsNewLines(@TempDir Path logs) throws Exception {
        Path file = logs.resolve("nginx.log");
        appendLog(file, "starting", "listening on 80", "GET / 200");
        kwok("logs", "Logs", "logs", Map.of("containers", List.of("nginx"), "logsFile", file.toString()));

        String tail = Eventually.await("KWOK to serve the log", TIMEOUT,
                () -> web.logs(LogOptions.builder().tailLines(2L).build()).read(), text -> !text.isEmpty());
        assertThat(tail).isEqualTo("listening on 80\nGET / 200\n");

        try (Stream<String> lines = web.logs(LogOptions.builder().container("nginx").follow(true).build()).stream()) {
            var iterator = lines.iterator();
            assertThat(iterator.next()).isEqualTo("starting");
            assertThat(iterator.next()).isEqualTo("listening on 80");
            assertThat(iterator.next()).isEqualTo("GET / 200");
            appendLog(file, "GET /health 200");
            assertThat(iterator.next()).isEqualTo("GET /health 200");
        }
    }

    private void serveExecs() {
        kwok("execs", "Exec", "execs", Map.of("containers", List.of("nginx"), "local", Map.of()));
        Eventually.await("KWOK to serve exec", TIMEOUT, () -> {
            try (ExecSession probe = web.exec(ExecOptions.command("true"))) {
                return probe.exitCode().get(10, TimeUnit.SECONDS) == 0;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    @Test
    void runsACommandAndReadsItsOutputAndExitCode() {
        serveExecs();

        try (ExecSession session = web.exec(ExecOptions.command("sh", "-c", "echo ready; echo 'no TLS' >&2"))) {
            ExecResult result = session.collect(Duration.ofSeconds(30));

            assertThat(session.protocol()).isEqualTo("v5.channel.k8s.io");
            assertThat(result).isEqualTo(new ExecResult("ready\n", "no TLS\n", 0));
        }
    }

    /**
     * A client that offers only {@code v4.channel.k8s.io} (as before Kubernetes 1.30): the API
     * server passes the WebSocket through to the kubelet, KWOK's here, which speaks v4 itself.
     */
    @Test
    void aV4SessionIsPassedThroughToTheKubeletsOwnWebSocket() {
        serveExecs();
        ExecOptions options = ExecOptions.command("echo", "over v4");
        WebSocket socket = client.rest().get().groupVersion("", "v1")
                .namespace(namespace).resource("pods").name("web").subresource("exec")
                .param("stdout", "true").param("stderr", "true").param("command", "echo").param("command", "over v4")
                .webSocket("v4.channel.k8s.io").block(TIMEOUT);

        try (ExecSession session = new WebSocketExecSession(socket, "exec in pod web", options, TIMEOUT).start()) {
            assertThat(session.protocol()).isEqualTo("v4.channel.k8s.io");
            assertThat(session.collect(Duration.ofSeconds(30))).isEqualTo(new ExecResult("over v4\n", "", 0));
        }
    }

    /**
     * KWOK reports a command that exits non-zero as an InternalError rather than the kubelet's
     * NonZeroExitCode (its exec wraps the exit error, so the kubelet library does not recognise it):
     * the session fails with the server's message. {@code ExecProtocolTest} reads exit codes from a
     * NonZeroExitCode status.
     */
    @Test
    void aCommandThatFailsOnKwokFailsTheExitCodeWithTheServersMessage() {
        serveExecs();

        try (ExecSession session = web.exec(ExecOptions.command("sh", "-c", "exit 3"))) {
            assertThatThrownBy(() -> session.collect(Duration.ofSeconds(30))).isInstanceOf(ExecException.class)
                    .hasMessageStartingWith("exec in pod " + namespace + "/web failed: ")
                    .hasMessageContaining("exit status 3");
        }
    }

    /**
     * KWOK copies stdin into the process but never closes the process's end, so a command that reads
     * to the end of its input never ends there; this one reads a line. That the v5 close signal goes
     * out when stdin closes is checked in {@code ExecProtocolTest}.
     */
    @Test
    void writesToACommandsStdin() throws Exception {
        serveExecs();

        try (ExecSession session = web.exec(ExecOptions.builder().command("sh", "-c", "read name; echo \"hello $name\"")
                .stdin(true).build())) {
            OutputStream stdin = session.stdin();
            stdin.write("postgres\n".getBytes(StandardCharsets.UTF_8));
            stdin.close();

            assertThat(session.collect(Duration.ofSeconds(30))).isEqualTo(new ExecResult("hello postgres\n", "", 0));
        }
    }

    @Test
    void attachesToTheContainersOutput(@TempDir Path logs) throws Exception {
        Path file = logs.resolve("attach.log");
        appendLog(file, "before the attach");
        kwok("attaches", "Attach", "attaches", Map.of("containers", List.of("nginx"), "logsFile", file.toString()));

        // KWOK passes on only what is written after it opened the file, some time after the session
        // opened: a writer adds a line until one came through; a try before KWOK saw the Attach fails
        ExecOptions attach = ExecOptions.builder().stdout(true).stderr(false).timeout(Duration.ofSeconds(10)).build();
        String first = Eventually.await("KWOK to attach and pass on a line", TIMEOUT, () -> {
            try (ExecSession session = web.attach(attach)) {
                return new String(whileWriting(file, () -> session.stdout().readNBytes("tick\n".length())),
                        StandardCharsets.UTF_8);
            }
        }, "tick\n"::equals);

        assertThat(first).isEqualTo("tick\n");
    }

    /** Runs {@code read} while another thread appends a line "tick" to {@code file} every 200 ms. */
    private static byte[] whileWriting(Path file, IoCall<byte[]> read) {
        CountDownLatch done = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try {
                while (!done.await(200, TimeUnit.MILLISECONDS)) {
                    appendLog(file, "tick");
                }
            } catch (IOException | InterruptedException e) {
                // the read is over
            }
        }, "attach-log-writer");
        writer.setDaemon(true);
        writer.start();
        try {
            return read.call();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } finally {
            done.countDown();
        }
    }

    private interface IoCall<T> {
        T call() throws IOException;
    }

    @Test
    void forwardsAPortToWhatThePodServes() throws Exception {
        try (ServerSocket backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread echo = new Thread(() -> serveUpperCase(backend), "upper-case-backend");
            echo.setDaemon(true);
            echo.start();
            kwok("portforwards", "PortForward", "forwards", Map.of("ports", List.of(8080),
                    "target", Map.of("port", backend.getLocalPort(), "address", "127.0.0.1")));

            String answer = Eventually.await("KWOK to forward port 8080", TIMEOUT, () -> {
                try (PortForward forward = web.openPort(8080)) {
                    forward.output().write("ping\n".getBytes(StandardCharsets.UTF_8));
                    return new String(forward.input().readNBytes(5), StandardCharsets.UTF_8);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "PING\n"::equals);
            assertThat(answer).isEqualTo("PING\n");

            try (LocalPortForward local = web.portForward(8080, 0);
                    Socket socket = new Socket(local.localAddress().getAddress(), local.localPort())) {
                socket.getOutputStream().write("hello\n".getBytes(StandardCharsets.UTF_8));
                assertThat(new String(socket.getInputStream().readNBytes(6), StandardCharsets.UTF_8))
                        .isEqualTo("HELLO\n");
            }
        }
    }

    /** Answers each line of each connection in upper case. */
    private static void serveUpperCase(ServerSocket server) {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                Thread worker = new Thread(() -> {
                    try (connection) {
                        InputStream in = connection.getInputStream();
                        OutputStream out = connection.getOutputStream();
                        for (int b; (b = in.read()) >= 0; ) {
                            out.write(Character.toUpperCase(b));
                            if (b == '\n') {
                                out.flush();
                            }
                        }
                    } catch (IOException e) {
                        // the test is over with this connection
                    }
                });
                worker.setDaemon(true);
                worker.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    @Test
    void withoutRbacForTheSubresourcesEachVerbIsForbidden(ClusterConnection connection, @TempDir Path folder) {
        Path kubeconfig = ServiceAccounts.connectAs(connection, namespace, "nobody", Duration.ofHours(1),
                folder.resolve("kubeconfig")).kubeconfig();
        try (KubernetesClient restricted = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null))) {
            PodStreams pod = PodStreams.of(restricted.rest(), namespace, "web");

            assertThatThrownBy(() -> pod.logs().read()).isInstanceOf(ApiException.Forbidden.class)
                    .hasMessageContaining("cannot get resource \"pods/log\"");
            assertThatThrownBy(() -> pod.exec(ExecOptions.command("true"))).isInstanceOf(ApiException.Forbidden.class)
                    .hasMessageStartingWith("exec in pod " + namespace + "/web failed: 403 Forbidden")
                    .hasMessageContaining("pods/exec");
            assertThatThrownBy(() -> pod.openPort(8080)).isInstanceOf(ApiException.Forbidden.class)
                    .hasMessageStartingWith("port-forward to pod " + namespace + "/web port 8080 failed: 403 Forbidden")
                    .hasMessageContaining("pods/portforward");
        }
    }

    /**
     * A token that went stale (a projected token rotated, read again only after a 401): the upgrade
     * is refused with 401, the client reads its token file again and opens the socket with the new
     * token; both upgrades are in the request metrics.
     */
    @Test
    void anUpgradeRefusedWith401IsTriedOnceMoreWithTheRotatedToken(ClusterConnection connection, @TempDir Path folder)
            throws Exception {
        serveExecs();
        client.rbacV1().roles().inNamespace(namespace).create(new RoleBuilder().withNewMetadata().withName("exec")
                .endMetadata().addNewRule().withApiGroups("").withResources("pods").withVerbs("get").endRule()
                .addNewRule().withApiGroups("").withResources("pods/exec").withVerbs("get", "create").endRule().build());
        client.rbacV1().roleBindings().inNamespace(namespace).create(new RoleBindingBuilder().withNewMetadata()
                .withName("exec").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role").withName("exec").endRoleRef().addNewSubject().withKind("ServiceAccount")
                .withName("execer").withNamespace(namespace).endSubject().build());
        String token = ServiceAccounts.connectAs(connection, namespace, "execer", Duration.ofHours(1),
                folder.resolve("execer.kubeconfig")).bearerToken();
        Path tokenFile = Files.writeString(folder.resolve("token"), "stale-token");
        Path kubeconfig = Files.writeString(folder.resolve("kubeconfig"), "clusters: [{name: c, cluster: {server: \""
                + connection.server() + "\", certificate-authority-data: " + Base64.getEncoder().encodeToString(
                        connection.certificateAuthorityPem().getBytes(StandardCharsets.UTF_8))
                + "}}]\ncontexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"
                + "users: [{name: u, user: {tokenFile: token}}]\n");
        List<String> upgrades = new CopyOnWriteArrayList<>();
        ClientOptions options = ClientOptions.builder().tokenFileRefresh(Duration.ofMinutes(10))
                .metrics((method, host, code, latency) -> upgrades.add(method + " " + code)).build();

        try (KubernetesClient rotating = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null), options)) {
            PodStreams pod = PodStreams.of(rotating.rest(), namespace, "web");
            assertThatThrownBy(() -> pod.exec(ExecOptions.command("true"))).isInstanceOf(ApiException.Unauthorized.class);
            Path next = Files.writeString(folder.resolve("token.next"), token);
            Files.move(next, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            upgrades.clear();

            try (ExecSession session = pod.exec(ExecOptions.command("sh", "-c", "echo rotated"))) {
                assertThat(session.collect(Duration.ofSeconds(30))).isEqualTo(new ExecResult("rotated\n", "", 0));
            }
            assertThat(upgrades).containsExactly("GET 401", "GET 101");
        }
    }

    @Test
    void refusalsNameThePodAndContainer() {
        PodStreams missing = PodStreams.of(client.rest(), namespace, "missing");

        assertThatThrownBy(() -> missing.logs().read()).isInstanceOf(ApiException.NotFound.class)
                .hasMessageContaining("/namespaces/" + namespace + "/pods/missing/log");
        assertThatThrownBy(() -> missing.exec(ExecOptions.command("true"))).isInstanceOf(ApiException.NotFound.class)
                .hasMessageStartingWith("exec in pod " + namespace + "/missing failed: 404 NotFound");
        assertThatThrownBy(() -> web.logs(LogOptions.builder().container("php").build()).read())
                .isInstanceOf(ApiException.BadRequest.class).hasMessageContaining("php");
        assertThatThrownBy(() -> web.exec(ExecOptions.builder().command("true").container("php").build()))
                .isInstanceOf(ApiException.BadRequest.class)
                .hasMessageStartingWith("exec in pod " + namespace + "/web (container php) failed: 400 BadRequest");
    }
}

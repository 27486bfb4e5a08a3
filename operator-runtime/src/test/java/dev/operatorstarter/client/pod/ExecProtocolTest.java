package dev.operatorstarter.client.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The remote-command protocol against an in-process WebSocket stand-in ({@link ChannelServer}):
 * channel framing, subprotocol choice, the exit code from the status channel, and the faults a
 * real server will not produce on demand. The same verbs against the real API server and KWOK are
 * in {@code PodStreamsIT}.
 */
class ExecProtocolTest {

    private static final String V5 = "v5.channel.k8s.io";
    private static final String V4 = "v4.channel.k8s.io";
    private static final String SUCCESS = "{\"metadata\":{},\"status\":\"Success\"}";

    private ChannelServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private PodStreams pod(ChannelServer standIn) {
        server = standIn;
        return PodStreams.of(standIn.client(), "shop", "db-0");
    }

    private static String exitStatus(int code) {
        return "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit code\","
                + "\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\""
                + code + "\"}]}}";
    }

    @Test
    void execOffersV5ThenV4AndCollectsStdoutStderrAndASuccessStatus() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5, V4), peer -> {
            peer.send(1, "");
            peer.send(1, "hello ");
            peer.send(2, "warning");
            peer.send(1, "world");
            peer.send(3, SUCCESS);
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.builder().command("sh", "-c", "echo hello world")
                .container("postgres").build())) {
            ExecResult result = session.collect(Duration.ofSeconds(10));

            assertThat(session.protocol()).isEqualTo(V5);
            assertThat(result).isEqualTo(new ExecResult("hello world", "warning", 0));
        }
        ChannelServer.Upgrade upgrade = server.upgrades().get(0);
        assertThat(upgrade.uri()).isEqualTo("/api/v1/namespaces/shop/pods/db-0/exec?container=postgres&stdin=false"
                + "&stdout=true&stderr=true&tty=false&command=sh&command=-c&command=echo%20hello%20world");
        assertThat(upgrade.protocols()).isEqualTo(V5 + "," + V4);
        assertThat(upgrade.authorization()).isEqualTo("Bearer " + ChannelServer.TOKEN);
    }

    @Test
    void aNonZeroExitIsTheCodeInTheStatusCauses() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5, V4), peer -> {
            peer.send(2, "no such table");
            peer.send(3, exitStatus(3));
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("psql", "-c", "select"))) {
            assertThat(session.exitCode().get(10, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(new String(session.stderr().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("no such table");
        }
    }

    @Test
    void stdinGoesOnChannelZeroAndClosingItSendsTheV5CloseSignal() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5, V4), peer -> {
            byte[] first = peer.next();
            byte[] close = peer.next();
            // echo what stdin carried, then report which close signal came
            peer.send(1, Arrays.copyOfRange(first, 1, first.length));
            peer.send(2, "close " + (close[0] & 0xff) + " " + close[1]);
            peer.send(3, SUCCESS);
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.builder().command("cat").stdin(true).build())) {
            OutputStream stdin = session.stdin();
            stdin.write("rows\n".getBytes(StandardCharsets.UTF_8));
            stdin.close();

            assertThat(session.collect(Duration.ofSeconds(10))).isEqualTo(new ExecResult("rows\n", "close 255 0", 0));
        }
    }

    @Test
    void aV4OnlyServerIsSpokenToInV4AndClosingStdinSendsNothing() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), peer -> {
            byte[] first = peer.next();
            peer.send(1, Arrays.copyOfRange(first, 1, first.length));
            // whatever the client sends after its stdin closed would be the next message
            byte[] after = peer.received.poll(300, TimeUnit.MILLISECONDS);
            peer.send(2, after == null ? "nothing" : "channel " + (after[0] & 0xff));
            peer.send(3, SUCCESS);
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.builder().command("cat").stdin(true).build())) {
            session.stdin().write('x');
            session.stdin().close();

            assertThat(session.protocol()).isEqualTo(V4);
            assertThat(session.collect(Duration.ofSeconds(10))).isEqualTo(new ExecResult("x", "nothing", 0));
        }
    }

    @Test
    void resizeSendsTheTerminalSizeOnChannelFour() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            byte[] resize = peer.next();
            peer.send(1, "channel " + resize[0] + " " + new String(resize, 1, resize.length - 1, StandardCharsets.UTF_8));
            peer.send(3, SUCCESS);
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.builder().command("top").stdin(true).tty(true).build())) {
            session.resize(120, 40);

            String written = session.collect(Duration.ofSeconds(10)).stdout();
            assertThat(written).startsWith("channel 4 ").contains("\"Width\":120").contains("\"Height\":40");
        }
    }

    @Test
    void resizeWithoutATerminalIsRefused() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            peer.send(3, SUCCESS);
            peer.close();
        }));
        try (ExecSession session = pod.exec(ExecOptions.command("ls"))) {
            assertThatThrownBy(() -> session.resize(80, 24)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("tty");
        }
    }

    @Test
    void aFailureThatIsNotAnExitCodeFailsTheExitCodeWithTheServersMessage() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            peer.send(3, "{\"status\":\"Failure\",\"message\":\"executable file not found\",\"reason\":\"InternalError\"}");
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("psql"))) {
            assertThatThrownBy(() -> session.exitCode().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ExecException.class)
                    .hasMessage("exec in pod shop/db-0 failed: executable file not found (InternalError)");
        }
    }

    @Test
    void aMalformedStatusIsAnErrorThatDoesNotQuoteIt() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            peer.send(3, "{\"status\": secret-looking-garbage");
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("ls"))) {
            assertThatThrownBy(() -> session.collect(Duration.ofSeconds(10))).isInstanceOf(ExecException.class)
                    .hasMessageContaining("exec in pod shop/db-0 ended with a malformed status")
                    .hasMessageNotContaining("secret-looking-garbage");
        }
    }

    @Test
    void aConnectionDroppedBeforeTheStatusFailsTheExitCodeAndEndsTheStreams() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            peer.send(1, "partial");
            Thread.sleep(0); // the message is queued before the drop
            peer.abort();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("pg_dump"))) {
            assertThatThrownBy(() -> session.exitCode().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(ExecException.class)
                    .hasMessageStartingWith("exec in pod shop/db-0 ");
            InputStream stdout = session.stdout();
            assertThat(stdout.read(new byte[64])).isIn(-1, 7);
        }
    }

    @Test
    void aNormalCloseWithoutAStatusIsSuccessAsInClientGo() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            peer.send(1, "done");
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("true"))) {
            assertThat(session.collect(Duration.ofSeconds(10))).isEqualTo(new ExecResult("done", "", 0));
        }
    }

    @Test
    void aSessionPastItsTimeoutIsClosedAndItsExitCodeFails() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> peer.next()));

        try (ExecSession session = pod.exec(ExecOptions.builder().command("sleep", "infinity")
                .timeout(Duration.ofMillis(200)).build())) {
            assertThatThrownBy(() -> session.exitCode().get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(ExecException.class)
                    .hasMessage("exec in pod shop/db-0 did not finish within its 200 ms timeout; the session was closed");
        }
    }

    @Test
    void collectPastItsDeadlineClosesTheSession() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> peer.next()));

        try (ExecSession session = pod.exec(ExecOptions.command("sleep", "infinity"))) {
            assertThatThrownBy(() -> session.collect(Duration.ofMillis(200))).isInstanceOf(ExecException.class)
                    .hasMessage("exec in pod shop/db-0 did not finish within 200 ms; the session was closed");
            assertThat(session.exitCode()).isCompletedExceptionally();
        }
    }

    @Test
    void closingBeforeTheEndFailsTheExitCode() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> peer.next()));

        ExecSession session = pod.exec(ExecOptions.command("sleep", "infinity"));
        session.close();

        assertThatThrownBy(() -> session.exitCode().get(10, TimeUnit.SECONDS)).cause()
                .hasMessage("exec in pod shop/db-0 was closed before the command ended");
    }

    @Test
    void aLargeOutputArrivesWholeAndInOrderThroughTheBoundedBuffers() throws Exception {
        int messages = 200; // 200 x 16 KiB: well past the 256 KiB a stream buffers
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> {
            for (int i = 0; i < messages; i++) {
                byte[] chunk = new byte[16 * 1024];
                Arrays.fill(chunk, (byte) i);
                peer.send(1, chunk);
            }
            peer.send(3, SUCCESS);
            peer.close();
        }));

        try (ExecSession session = pod.exec(ExecOptions.command("pg_dump"))) {
            byte[] all = session.stdout().readAllBytes();

            assertThat(all).hasSize(messages * 16 * 1024);
            for (int i = 0; i < messages; i++) {
                assertThat(all[i * 16 * 1024]).as("message %d", i).isEqualTo((byte) i);
            }
            assertThat(session.exitCode().get(10, TimeUnit.SECONDS)).isZero();
        }
    }

    @Test
    void aServerThatPicksNoChannelProtocolIsRefusedClearly() {
        PodStreams pod = pod(ChannelServer.speaking(List.of("channel.k8s.io"), peer -> peer.next()));

        assertThatThrownBy(() -> pod.exec(ExecOptions.command("ls")))
                .isInstanceOf(dev.operatorstarter.client.rest.KubernetesClientException.class)
                .hasMessageStartingWith("exec in pod shop/db-0 failed: the server chose no subprotocol of "
                        + "v5.channel.k8s.io, v4.channel.k8s.io")
                .hasMessageNotContaining("command=");
    }

    @Test
    void aRefusedUpgradeIsTheApiExceptionOfItsStatusNamingThePodNotTheToken() {
        PodStreams pod = pod(ChannelServer.refusing(404, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":"
                + "\"Failure\",\"message\":\"pods \\\"db-0\\\" not found\",\"reason\":\"NotFound\",\"code\":404}"));

        assertThatThrownBy(() -> pod.exec(ExecOptions.builder().command("ls").container("postgres").build()))
                .isInstanceOf(ApiException.NotFound.class)
                .hasMessage("exec in pod shop/db-0 (container postgres) failed: 404 NotFound: pods \"db-0\" not found")
                .hasMessageNotContaining(ChannelServer.TOKEN);
    }

    @Test
    void anUpgradeThatIsNeverAnsweredFailsAfterTheRequestTimeoutNamingTheSession() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
                RestClient rest = RestClient.create(new ClientConfig(URI.create("http://127.0.0.1:" + silent.getLocalPort()),
                        TlsSettings.defaults(), Credentials.none(), null, "default", "test"),
                        ClientOptions.builder().requestTimeout(Duration.ofMillis(300)).build())) {
            PodStreams pod = PodStreams.of(rest, "shop", "db-0");

            assertThatThrownBy(() -> pod.exec(ExecOptions.command("ls")))
                    .isInstanceOf(dev.operatorstarter.client.rest.KubernetesClientException.class)
                    .hasMessage("exec in pod shop/db-0 timed out after 300 ms (requestTimeout)");
        }
    }

    @Test
    void attachTakesNoCommandAndExecNeedsOne() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> peer.next()));

        assertThatThrownBy(() -> pod.attach(ExecOptions.command("ls"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("attach takes no command");
        assertThatThrownBy(() -> pod.exec(ExecOptions.builder().build())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exec needs a command");
        assertThat(server.upgrades()).isEmpty();
    }

    @Test
    void writingToStdinThatWasNotOpenedFailsSayingSo() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V5), peer -> peer.next()));

        try (ExecSession session = pod.exec(ExecOptions.command("ls"))) {
            assertThatThrownBy(() -> session.stdin().write('x')).isInstanceOf(java.io.IOException.class)
                    .hasMessage("the stdin of exec in pod shop/db-0 was not opened: ExecOptions.stdin(true)");
        }
    }
}

package dev.operatorstarter.client.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.rest.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The port-forward protocol against an in-process WebSocket stand-in ({@link ChannelServer}): the
 * port prefix of each channel's first message, data both ways, the error channel, and a local
 * listening socket. The real API server and KWOK are in {@code PodStreamsIT}.
 */
class PortForwardProtocolTest {

    private static final String V4 = "v4.channel.k8s.io";

    private ChannelServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private PodStreams pod(ChannelServer standIn) {
        server = standIn;
        return PodStreams.of(standIn.client(), "shop", "web-0");
    }

    private static byte[] port(int port) {
        return new byte[] {(byte) (port & 0xff), (byte) (port >> 8)};
    }

    /** A kubelet-like peer: the port on both channels, then it echoes what it gets in upper case. */
    private static ChannelServer.Script echoingUpperCase(int port) {
        return peer -> {
            peer.send(0, port(port));
            peer.send(1, port(port));
            while (true) {
                byte[] message = peer.next();
                String text = new String(message, 1, message.length - 1, StandardCharsets.UTF_8);
                peer.send(message[0], text.toUpperCase());
            }
        };
    }

    @Test
    void aStreamCarriesBytesBothWaysAfterThePortPrefixes() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), echoingUpperCase(8080)));

        try (PortForward forward = pod.openPort(8080)) {
            forward.output().write("ping".getBytes(StandardCharsets.UTF_8));

            assertThat(new String(forward.input().readNBytes(4), StandardCharsets.UTF_8)).isEqualTo("PING");
        }
        assertThat(server.upgrades().get(0).uri()).isEqualTo("/api/v1/namespaces/shop/pods/web-0/portforward?ports=8080");
        assertThat(server.upgrades().get(0).protocols()).isEqualTo(V4);
    }

    @Test
    void anErrorOnThePortsErrorChannelFailsTheInputNamingPodAndPort() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), peer -> {
            peer.send(0, port(5432));
            peer.send(1, port(5432));
            peer.send(1, "dial tcp 127.0.0.1:5432: connect: connection refused");
            peer.next();
        }));

        try (PortForward forward = pod.openPort(5432)) {
            assertThatThrownBy(() -> forward.input().read()).isInstanceOf(IOException.class)
                    .hasMessage("port-forward to pod shop/web-0 port 5432 failed: "
                            + "dial tcp 127.0.0.1:5432: connect: connection refused");
        }
    }

    @Test
    void aFirstMessageForAnotherPortIsRefused() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), peer -> {
            peer.send(0, port(9090));
            peer.next();
        }));

        try (PortForward forward = pod.openPort(8080)) {
            assertThatThrownBy(() -> forward.input().read()).isInstanceOf(IOException.class)
                    .hasMessage("port-forward to pod shop/web-0 port 8080 failed: the server answered for port 9090"
                            + " on channel 0");
        }
    }

    @Test
    void theInputEndsWhenTheServerClosesNormally() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), peer -> {
            peer.send(0, port(8080));
            peer.send(1, port(8080));
            peer.send(0, "bye");
            peer.close();
        }));

        try (PortForward forward = pod.openPort(8080)) {
            assertThat(new String(forward.input().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("bye");
        }
    }

    @Test
    void aLocalPortForwardsEachConnectionOverItsOwnWebSocket() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), echoingUpperCase(8080)));

        try (LocalPortForward local = pod.portForward(8080, 0)) {
            for (String word : List.of("first", "second")) {
                try (Socket socket = new Socket(local.localAddress().getAddress(), local.localPort())) {
                    OutputStream out = socket.getOutputStream();
                    out.write(word.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    InputStream in = socket.getInputStream();
                    assertThat(new String(in.readNBytes(word.length()), StandardCharsets.UTF_8))
                            .isEqualTo(word.toUpperCase());
                }
            }
            assertThat(local.localAddress().getAddress().isLoopbackAddress()).isTrue();
            assertThat(local.errors()).isEmpty();
        }
        assertThat(server.upgrades()).hasSize(2);
    }

    @Test
    void closingTheLocalForwardEndsItsConnections() throws Exception {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), echoingUpperCase(8080)));

        LocalPortForward local = pod.portForward(8080, 0);
        try (Socket socket = new Socket(local.localAddress().getAddress(), local.localPort())) {
            socket.getOutputStream().write('a');
            assertThat(socket.getInputStream().read()).isEqualTo('A');

            local.close();

            assertThat(readUntilClosed(socket.getInputStream())).isEqualTo(-1);
        }
    }

    /** -1 at the end of the stream, or when the connection was reset. */
    private static int readUntilClosed(InputStream in) {
        try {
            return in.read();
        } catch (IOException reset) {
            return -1;
        }
    }

    @Test
    void aLocalConnectionThatCannotBeForwardedIsClosedAndItsErrorKept() throws Exception {
        PodStreams pod = pod(ChannelServer.refusing(404, "{\"kind\":\"Status\",\"status\":\"Failure\","
                + "\"message\":\"pods \\\"web-0\\\" not found\",\"reason\":\"NotFound\",\"code\":404}"));

        try (LocalPortForward local = pod.portForward(8080, 0);
                Socket socket = new Socket(local.localAddress().getAddress(), local.localPort())) {
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
            assertThat(local.errors()).singleElement().isInstanceOf(ApiException.NotFound.class)
                    .extracting(Throwable::getMessage).isEqualTo(
                            "port-forward to pod shop/web-0 port 8080 failed: 404 NotFound: pods \"web-0\" not found");
        }
    }

    @Test
    void portsOutOfRangeAreRefusedBeforeAnyRequest() {
        PodStreams pod = pod(ChannelServer.speaking(List.of(V4), peer -> peer.next()));

        assertThatThrownBy(() -> pod.openPort(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be 1 to 65535, was 0");
        assertThatThrownBy(() -> pod.portForward(8080, 70000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("localPort must be 0 (any) to 65535, was 70000");
        assertThat(server.upgrades()).isEmpty();
    }
}

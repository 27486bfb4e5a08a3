package dev.operatorstarter.autoconfigure.webhook;

import static dev.operatorstarter.autoconfigure.webhook.TestServers.answers;
import static dev.operatorstarter.autoconfigure.webhook.TestServers.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.autoconfigure.webhook.TestServers.ClientCertificate;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook server's TLS against real clients: a client certificate required with
 * {@code client-ca}, TLS 1.1 refused, the minimum version and the cipher suites enforced. After
 * each refusal, a well-behaved caller is still answered.
 */
class WebhookServerTlsTest {

    private @Nullable NettyWebhookServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void withAClientCaOnlyACallerWithACertificateItSignedIsAnswered(@TempDir Path folder) throws Exception {
        ClientCertificate apiServer = ClientCertificate.generate("kube-apiserver");
        ClientCertificate stranger = ClientCertificate.generate("stranger");
        Path bundle = Files.writeString(folder.resolve("client-ca.pem"), apiServer.caPem());
        NettyWebhookServer started = start(Map.of("client-ca", bundle.toString()));

        assertThatThrownBy(() -> answers(started)).as("no client certificate").isInstanceOf(IOException.class);
        assertThatThrownBy(() -> call(started, TestServers.tls(started, stranger), new SSLParameters()))
                .as("a certificate another CA signed").isInstanceOf(IOException.class);
        assertThat(call(started, TestServers.tls(started, apiServer), new SSLParameters())).isEqualTo(200);
    }

    @Test
    void withoutAClientCaNoClientCertificateIsAskedFor() throws Exception {
        NettyWebhookServer started = start(Map.of());

        assertThat(answers(started)).isTrue();
    }

    @Test
    void aClientCaFileThatHoldsNoCertificateFailsTheStartNamingTheProperty(@TempDir Path folder) throws Exception {
        Path bundle = Files.writeString(folder.resolve("client-ca.pem"), "not a certificate");

        assertThatThrownBy(() -> start(Map.of("client-ca", bundle.toString())))
                .isInstanceOf(InvalidWebhookException.class).hasMessageContaining("operator.webhook.client-ca");
    }

    @Test
    void aTls11HelloIsRefusedWhileTheSameHelloAsTls12IsAnswered() throws Exception {
        NettyWebhookServer started = start(Map.of());

        assertThat(firstRecordType(started, 0x0302)).as("a TLS 1.1 hello gets an alert or a close").isIn(0x15, -1);
        assertThat(firstRecordType(started, 0x0303)).as("a TLS 1.2 hello gets a handshake record").isEqualTo(0x16);
        assertThat(answers(started)).isTrue();
    }

    @Test
    void withMinimumTls13ATls12CallerIsRefusedWhileByDefaultItIsAnswered() throws Exception {
        SSLParameters tls12 = new SSLParameters();
        tls12.setProtocols(new String[] {"TLSv1.2"});
        NettyWebhookServer byDefault = start(Map.of());
        assertThat(call(byDefault, TestServers.tls(byDefault, null), tls12)).isEqualTo(200);
        byDefault.stop();

        NettyWebhookServer started = start(Map.of("tls-min-version", "1.3"));

        assertThatThrownBy(() -> call(started, TestServers.tls(started, null), tls12)).isInstanceOf(IOException.class);
        assertThat(answers(started)).isTrue();
    }

    @Test
    void aCallerOfferingOnlyACipherSuiteWithoutForwardSecrecyOrAeadIsRefusedByDefault() throws Exception {
        NettyWebhookServer started = start(Map.of());
        SSLParameters cbc = new SSLParameters();
        cbc.setProtocols(new String[] {"TLSv1.2"});
        cbc.setCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"});

        assertThatThrownBy(() -> call(started, TestServers.tls(started, null), cbc)).isInstanceOf(IOException.class);
        assertThat(answers(started)).isTrue();
    }

    @Test
    void theCipherSuitesAreConfigurableAndAnUnknownOneFailsTheStartNamingTheProperty() throws Exception {
        SSLParameters cbc = new SSLParameters();
        cbc.setProtocols(new String[] {"TLSv1.2"});
        cbc.setCipherSuites(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"});
        NettyWebhookServer started = start(Map.of("tls-cipher-suites", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"));
        assertThat(call(started, TestServers.tls(started, null), cbc)).isEqualTo(200);
        started.stop();

        assertThatThrownBy(() -> start(Map.of("tls-cipher-suites", "TLS_NO_SUCH_SUITE")))
                .isInstanceOf(InvalidWebhookException.class)
                .hasMessageContaining("operator.webhook.tls-cipher-suites").hasMessageContaining("TLS_NO_SUCH_SUITE");
    }

    private NettyWebhookServer start(Map<String, String> values) {
        NettyWebhookServer started = TestServers.start(values);
        server = started;
        return started;
    }

    /**
     * Sends a ClientHello of {@code version} (0x0302 TLS 1.1, 0x0303 TLS 1.2) offering ECDHE-ECDSA
     * suites for both, and returns the type of the first record answered (0x15 alert, 0x16
     * handshake), or -1 when the server closes without one.
     */
    private static int firstRecordType(NettyWebhookServer server, int version) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(version >> 8);
        body.write(version);
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        body.writeBytes(random);
        body.write(0); // no session id
        // ECDHE_ECDSA with AES_128_GCM_SHA256, AES_128_CBC_SHA (TLS 1.1's), ECDHE_RSA with AES_128_CBC_SHA
        body.writeBytes(new byte[] {0, 6, (byte) 0xC0, 0x2B, (byte) 0xC0, 0x09, (byte) 0xC0, 0x13});
        body.writeBytes(new byte[] {1, 0}); // null compression
        byte[] extensions = {
            0x00, 0x0a, 0, 4, 0, 2, 0x00, 0x17, // supported_groups: secp256r1
            0x00, 0x0b, 0, 2, 1, 0, // ec_point_formats: uncompressed
            0x00, 0x0d, 0, 4, 0, 2, 0x04, 0x03, // signature_algorithms: ecdsa_secp256r1_sha256
        };
        body.write(extensions.length >> 8);
        body.write(extensions.length);
        body.writeBytes(extensions);
        byte[] hello = body.toByteArray();
        ByteArrayOutputStream record = new ByteArrayOutputStream();
        record.writeBytes(new byte[] {0x16, 0x03, 0x01});
        int handshakeLength = hello.length + 4;
        record.write(handshakeLength >> 8);
        record.write(handshakeLength);
        record.writeBytes(new byte[] {0x01, 0, (byte) (hello.length >> 8), (byte) hello.length});
        record.writeBytes(hello);
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write(record.toByteArray());
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            try {
                return in.read();
            } catch (IOException e) {
                return -1; // reset
            }
        }
    }

}

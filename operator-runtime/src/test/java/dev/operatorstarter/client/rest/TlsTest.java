package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.config.ClientCertificate;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.FaultServer.Reply;
import java.net.URI;
import java.util.List;
import javax.net.ssl.SSLServerSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** TLS as the kubeconfig describes it, against an in-process TLS server with a certificate for a name only. */
class TlsTest {

    private static final TlsFixtures PKI = new TlsFixtures("api.internal");

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

    private JsonNode version(TlsSettings tls, boolean requireClientCertificate) throws Exception {
        server = new FaultServer(request -> Reply.json(200, "{\"gitVersion\":\"v1.37.2\"}"), PKI.serverContext());
        if (requireClientCertificate) {
            ((SSLServerSocket) serverSocket(server)).setNeedClientAuth(true);
        }
        server.start();
        rest = RestClient.create(new ClientConfig(server.uri(), tls, Credentials.none(), null, "default", "test config"),
                ClientOptions.builder().maxRetries(0).build());
        return rest.get().path("/version").execute(JsonNode.class);
    }

    private static java.net.ServerSocket serverSocket(FaultServer server) throws Exception {
        var field = FaultServer.class.getDeclaredField("socket");
        field.setAccessible(true);
        return (java.net.ServerSocket) field.get(server);
    }

    @Test
    void tlsServerNameVerifiesTheCertificateAgainstThatNameInsteadOfTheUrlHost() throws Exception {
        JsonNode version = version(new TlsSettings(List.of(PKI.ca), false, "api.internal", null), false);

        assertThat(version.path("gitVersion").asString()).isEqualTo("v1.37.2");
    }

    @Test
    void aCertificateThatDoesNotNameTheUrlHostIsRefused() {
        assertThatThrownBy(() -> version(new TlsSettings(List.of(PKI.ca), false, null, null), false))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("failed in the TLS handshake with https://127.0.0.1:")
                .hasMessageContaining("(test config)");
    }

    @Test
    void aServerFromAnotherAuthorityIsRefused() {
        TlsFixtures other = new TlsFixtures("api.internal");
        assertThatThrownBy(() -> version(new TlsSettings(List.of(other.ca), false, "api.internal", null), false))
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("TLS handshake");
    }

    @Test
    void insecureSkipTlsVerifyAcceptsAnyServer() throws Exception {
        JsonNode version = version(new TlsSettings(List.of(), true, null, null), false);

        assertThat(version.path("gitVersion").asString()).isEqualTo("v1.37.2");
    }

    @Test
    void theClientCertificateIsPresentedWhenTheServerAsksForOne() throws Exception {
        ClientCertificate certificate = new ClientCertificate(List.of(PKI.client), PKI.clientKeys.getPrivate());

        JsonNode version = version(new TlsSettings(List.of(PKI.ca), false, "api.internal", certificate), true);

        assertThat(version.path("gitVersion").asString()).isEqualTo("v1.37.2");
    }

    @Test
    void withoutAClientCertificateAServerThatDemandsOneRefuses() {
        assertThatThrownBy(() -> version(new TlsSettings(List.of(PKI.ca), false, "api.internal", null), true))
                .isInstanceOf(KubernetesClientException.class);
    }

    @Test
    void aProxyUrlTunnelsTheConnectionThroughTheProxy() throws Exception {
        try (ConnectProxy proxy = new ConnectProxy()) {
            server = new FaultServer(request -> Reply.json(200, "{\"gitVersion\":\"v1.37.2\"}"), PKI.serverContext())
                    .start();
            rest = RestClient.create(new ClientConfig(server.uri(), new TlsSettings(List.of(PKI.ca), false,
                    "api.internal", null), Credentials.none(), URI.create("http://me:s3cret@" + proxy.uri().getAuthority()),
                    "default", "test config"),
                    ClientOptions.builder().maxRetries(0).build());

            JsonNode version = rest.get().path("/version").execute(JsonNode.class);

            assertThat(version.path("gitVersion").asString()).isEqualTo("v1.37.2");
            assertThat(proxy.targets()).containsExactly("CONNECT 127.0.0.1:" + server.uri().getPort());
            assertThat(proxy.authorizations()).containsExactly("Basic " + java.util.Base64.getEncoder()
                    .encodeToString("me:s3cret".getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    @Test
    void anExecPluginCertificateIsPresentedAndARotatedOneReplacesTheOldConnection(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path temp) throws Exception {
        for (String name : List.of("old", "new")) {
            TlsFixtures.Issued issued = PKI.client(name);
            var status = dev.operatorstarter.internal.Json.MAPPER.createObjectNode();
            status.putObject("status").put("clientCertificateData", issued.certificatePem())
                    .put("clientKeyData", issued.keyPem());
            status.put("apiVersion", "client.authentication.k8s.io/v1").put("kind", "ExecCredential");
            java.nio.file.Files.writeString(temp.resolve(name + ".json"), status.toString());
        }
        // first run prints the old certificate, every later run the new one
        java.nio.file.Path script = java.nio.file.Files.writeString(temp.resolve("plugin.sh"), "#!/bin/sh\n"
                + "if [ -f \"$STATE/ran\" ]; then cat \"$STATE/new.json\"; else touch \"$STATE/ran\"; cat \"$STATE/old.json\"; fi\n");
        java.nio.file.Files.setPosixFilePermissions(script, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        server = new FaultServer(request -> request.clientSubject().equals("CN=new")
                ? Reply.json(200, "{\"gitVersion\":\"v1.37.2\"}")
                : Reply.json(401, "{\"kind\":\"Status\",\"code\":401,\"reason\":\"Unauthorized\"}"), PKI.serverContext());
        ((SSLServerSocket) serverSocket(server)).setWantClientAuth(true);
        server.start();
        Credentials.Exec exec = new Credentials.Exec("client.authentication.k8s.io/v1", script.toString(), List.of(),
                java.util.Map.of("STATE", temp.toString()), Credentials.InteractiveMode.NEVER, false, "", temp);
        rest = RestClient.create(new ClientConfig(server.uri(), new TlsSettings(List.of(PKI.ca), false, "api.internal",
                null), exec, null, "default", "test config"), ClientOptions.builder().maxRetries(0).build());

        JsonNode version;
        try {
            version = rest.get().path("/version").execute(JsonNode.class);
        } finally {
            assertThat(server.requests()).extracting(FaultServer.Received::clientSubject)
                    .containsExactly("CN=old", "CN=new");
        }

        assertThat(version.path("gitVersion").asString()).isEqualTo("v1.37.2");
    }

    @Test
    void withTlsServerNameACertificateNamingOnlyTheUrlHostIsRefused() throws Exception {
        TlsFixtures alsoLoopback = new TlsFixtures("api.internal", "127.0.0.1");
        server = new FaultServer(request -> Reply.json(200, "{}"), alsoLoopback.serverContext()).start();
        rest = RestClient.create(new ClientConfig(server.uri(), new TlsSettings(List.of(alsoLoopback.ca), false,
                "other.internal", null), Credentials.none(), null, "default", "test config"),
                ClientOptions.builder().maxRetries(0).build());

        // the certificate is valid for 127.0.0.1, the URL's host, but not for the name we asked for
        assertThatThrownBy(() -> rest.get().path("/version").execute(JsonNode.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("not valid for tls-server-name other.internal");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({
        "api.internal, true", "API.Internal., true", "other.internal, false", "x.wild.example, true",
        "a.b.wild.example, false", "wild.example, false", "10.1.2.3, true", "10.1.2.4, false"})
    void namesMatchLikeGo(String name, boolean matches) {
        TlsFixtures fixtures = new TlsFixtures("api.internal", "*.wild.example", "10.1.2.3");
        org.assertj.core.api.ThrowableAssert.ThrowingCallable check =
                () -> ServerNameTrustManager.verifyName(fixtures.server, name);
        if (matches) {
            org.assertj.core.api.Assertions.assertThatCode(check).doesNotThrowAnyException();
        } else {
            assertThatThrownBy(check).hasMessageContaining("not valid for tls-server-name " + name);
        }
    }
}

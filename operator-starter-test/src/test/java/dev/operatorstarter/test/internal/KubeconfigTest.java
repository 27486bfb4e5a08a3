package dev.operatorstarter.test.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeconfigTest {

    private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

    @TempDir
    Path temp;

    @Test
    void aWrittenKubeconfigReadsBackWithItsCurrentContext() {
        Path file = temp.resolve("config");
        Kubeconfig.write(file, "local", URI.create("https://127.0.0.1:6443"), CA, "CERT", "KEY", null);

        Kubeconfig.Entry entry = Kubeconfig.read(file, null);

        assertThat(entry.context()).isEqualTo("local");
        assertThat(entry.server()).isEqualTo(URI.create("https://127.0.0.1:6443"));
        assertThat(entry.certificateAuthorityPem()).isEqualTo(CA);
        assertThat(entry.clientCertificatePem()).isEqualTo("CERT");
        assertThat(entry.clientKeyPem()).isEqualTo("KEY");
    }

    @Test
    void relativeFilePathsResolveAgainstTheKubeconfigFolder() throws IOException {
        Path dir = Files.createDirectories(temp.resolve("kube"));
        Files.writeString(dir.resolve("ca.crt"), CA);
        Files.writeString(dir.resolve("token"), "secret-token\n");
        Path file = Files.writeString(dir.resolve("config"), """
                apiVersion: v1
                kind: Config
                current-context: dev
                clusters:
                - name: c
                  cluster: {server: "https://example.test", certificate-authority: ca.crt}
                users:
                - name: u
                  user: {tokenFile: token}
                contexts:
                - name: dev
                  context: {cluster: c, user: u}
                """);

        Kubeconfig.Entry entry = Kubeconfig.read(file, null);

        assertThat(entry.certificateAuthorityPem()).isEqualTo(CA);
        assertThat(entry.bearerToken()).isEqualTo("secret-token");
    }

    @Test
    void anUnknownContextIsNamedWithTheFile() {
        Path file = temp.resolve("config");
        Kubeconfig.write(file, "local", URI.create("https://127.0.0.1:6443"), CA, "CERT", "KEY", null);

        assertThatThrownBy(() -> Kubeconfig.read(file, "prod"))
                .hasMessage("kubeconfig " + file + " has no context named 'prod'");
    }

    @Test
    void anExecPluginUserIsRejectedWithTheReason() throws IOException {
        Path file = Files.writeString(temp.resolve("config"), """
                current-context: eks
                clusters: [{name: c, cluster: {server: "https://x", certificate-authority-data: "%s"}}]
                users: [{name: u, user: {exec: {command: aws}}}]
                contexts: [{name: eks, context: {cluster: c, user: u}}]
                """.formatted(java.util.Base64.getEncoder().encodeToString(CA.getBytes())));

        assertThatThrownBy(() -> Kubeconfig.read(file, null))
                .hasMessageContaining("context 'eks'")
                .hasMessageContaining("uses an exec or auth-provider plugin");
    }

    @Test
    void malformedYamlIsReportedWithTheFile() throws IOException {
        Path file = Files.writeString(temp.resolve("config"), "clusters: [unclosed\n");

        assertThatThrownBy(() -> Kubeconfig.read(file, null))
                .hasMessageStartingWith("kubeconfig " + file + " is not valid YAML");
    }
}

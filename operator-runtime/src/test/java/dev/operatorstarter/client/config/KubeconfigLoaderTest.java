package dev.operatorstarter.client.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KubeconfigLoaderTest {

    private static final TestCertificates CA = TestCertificates.rsa("test-ca");
    private static final TestCertificates RSA_USER = TestCertificates.rsa("rsa-user");
    private static final TestCertificates EC_USER = TestCertificates.ec("ec-user");

    @TempDir
    Path temp;

    private Path write(String name, String yaml) throws Exception {
        Path file = temp.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, yaml);
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheCurrentContextWithFilesRelativeToTheKubeconfig() throws Exception {
        write("conf/pki/ca.crt", CA.certificatePem());
        write("conf/pki/user.crt", RSA_USER.certificatePem());
        write("conf/pki/user.key", RSA_USER.traditionalKeyPem()); // PKCS#1
        Path file = write("conf/config", """
                apiVersion: v1
                kind: Config
                current-context: dev
                clusters:
                - name: dev-cluster
                  cluster:
                    server: https://10.0.0.1:6443
                    certificate-authority: pki/ca.crt
                    tls-server-name: kubernetes.default
                users:
                - name: dev-user
                  user:
                    client-certificate: pki/user.crt
                    client-key: pki/user.key
                contexts:
                - name: dev
                  context: {cluster: dev-cluster, user: dev-user, namespace: team-a}
                """);

        ClientConfig config = KubeconfigLoader.load(file, null);

        assertThat(config.server()).hasToString("https://10.0.0.1:6443");
        assertThat(config.namespace()).isEqualTo("team-a");
        assertThat(config.tls().serverName()).isEqualTo("kubernetes.default");
        assertThat(config.tls().certificateAuthorities()).hasSize(1);
        assertThat(config.tls().clientCertificate()).isNotNull();
        assertThat(config.tls().clientCertificate().key().getAlgorithm()).isEqualTo("RSA");
        assertThat(config.source()).contains(file.toString()).contains("context dev");
        assertThat(config.tls().clientCertificate().toString()).doesNotContain("PRIVATE");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void readsEcKeysInSec1AndPkcs8(boolean sec1) throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h:6443", certificate-authority-data: %s}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """.formatted(base64(CA.certificatePem()), base64(EC_USER.certificatePem()),
                base64(sec1 ? EC_USER.traditionalKeyPem() : EC_USER.pkcs8KeyPem())));

        ClientConfig config = KubeconfigLoader.load(file, null);

        assertThat(config.tls().clientCertificate().key().getAlgorithm()).isEqualTo("EC");
        assertThat(config.namespace()).isEqualTo("default");
    }

    @Test
    void mergesTheKubeconfigListFirstDefinitionWinning() throws Exception {
        Path first = write("first", """
                current-context: from-first
                clusters: [{name: shared, cluster: {server: "https://first:6443"}}]
                contexts: [{name: from-first, context: {cluster: shared, user: u}}]
                """);
        Path second = write("second", """
                current-context: from-second
                clusters: [{name: shared, cluster: {server: "https://second:6443"}}]
                users: [{name: u, user: {token: secret-token}}]
                contexts: [{name: from-second, context: {cluster: shared, user: u, namespace: other}}]
                """);
        String list = first + File.pathSeparator + temp.resolve("missing") + File.pathSeparator + second;

        ClientConfig current = KubeconfigLoader.fromEnvironment(Map.of("KUBECONFIG", list), null);
        ClientConfig explicit = KubeconfigLoader.fromEnvironment(Map.of("KUBECONFIG", list), "from-second");

        assertThat(current.server()).hasToString("https://first:6443");
        assertThat(current.credentials()).isInstanceOf(Credentials.BearerToken.class);
        assertThat(current.credentials().toString()).doesNotContain("secret-token");
        assertThat(explicit.server()).hasToString("https://first:6443");
        assertThat(explicit.namespace()).isEqualTo("other");
    }

    @Test
    void aTokenFileWinsOverAnInlineTokenAndResolvesRelativeToTheFile() throws Exception {
        Path file = write("dir/config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {token: inline, tokenFile: token.txt}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);

        ClientConfig config = KubeconfigLoader.load(file, null);

        assertThat(config.credentials()).isEqualTo(new Credentials.TokenFile(temp.resolve("dir/token.txt")));
    }

    @Test
    void readsAnExecPlugin() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", insecure-skip-tls-verify: true}}]
                users:
                - name: u
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: ./bin/get-token
                      args: [--cluster, c]
                      env: [{name: MODE, value: test}]
                      interactiveMode: Never
                      provideClusterInfo: true
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);

        Credentials.Exec exec = (Credentials.Exec) KubeconfigLoader.load(file, null).credentials();

        assertThat(exec.command()).isEqualTo("./bin/get-token");
        assertThat(exec.args()).containsExactly("--cluster", "c");
        assertThat(exec.env()).containsEntry("MODE", "test");
        assertThat(exec.interactiveMode()).isEqualTo(Credentials.InteractiveMode.NEVER);
        assertThat(exec.provideClusterInfo()).isTrue();
        assertThat(exec.workingDirectory()).isEqualTo(temp.toAbsolutePath());
    }

    @Test
    void readsTheInClusterServiceAccount() throws Exception {
        Path account = Files.createDirectories(temp.resolve("sa"));
        Files.writeString(account.resolve("token"), "pod-token");
        Files.writeString(account.resolve("ca.crt"), CA.certificatePem());
        Files.writeString(account.resolve("namespace"), "operators\n");

        ClientConfig config = InClusterConfig.load(Map.of("KUBERNETES_SERVICE_HOST", "fd00::1",
                "KUBERNETES_SERVICE_PORT", "443"), account);

        assertThat(config.server()).hasToString("https://[fd00::1]:443");
        assertThat(config.namespace()).isEqualTo("operators");
        assertThat(config.credentials()).isEqualTo(new Credentials.TokenFile(account.resolve("token")));
        assertThat(config.tls().certificateAuthorities()).hasSize(1);
    }

    // --- bad input: each names the file, context and field ---

    @Test
    void aMissingFileIsNamed() {
        Path missing = temp.resolve("nope");
        assertThatThrownBy(() -> KubeconfigLoader.load(missing, null)).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + missing + " does not exist");
    }

    @Test
    void anUnknownContextListsTheKnownOnes() throws Exception {
        Path file = write("config", """
                clusters: [{name: c, cluster: {server: "https://h"}}]
                contexts: [{name: a, context: {cluster: c}}, {name: b, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, "prod")).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + file + " has no context \"prod\"; contexts: [a, b]");
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).hasMessageContaining("has no current-context");
    }

    @Test
    void malformedYamlGivesTheLine() throws Exception {
        Path file = write("config", "clusters:\n  - name: [unclosed\n");
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("kubeconfig " + file + " is not valid YAML").hasMessageContaining("line");
    }

    @Test
    void aMissingCertificateFileNamesTheContextUserAndField() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {client-certificate: gone.crt, client-key: gone.key}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + file + ": context \"c\": user \"u\": client-certificate names "
                        + temp.resolve("gone.crt") + ", which does not exist");
    }

    @Test
    void aKeyThatDoesNotBelongToTheCertificateIsRefused() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """.formatted(base64(RSA_USER.certificatePem()), base64(CA.pkcs8KeyPem())));
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("context \"c\": user \"u\": client-certificate-data and client-key-data do not match")
                .hasMessageNotContaining("PRIVATE KEY");
    }

    @Test
    void anUnreadableCertificateAuthorityIsNamed() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", certificate-authority-data: %s}}]
                contexts: [{name: c, context: {cluster: c}}]
                """.formatted(base64("not a certificate")));
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("context \"c\": cluster \"c\": certificate-authority-data ");
    }

    @Test
    void anUnreadableCertificateAuthorityFileIsNamedAsTheFileField() throws Exception {
        write("ca.crt", "not a certificate");
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", certificate-authority: ca.crt}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("context \"c\": cluster \"c\": certificate-authority ")
                .hasMessageNotContaining("certificate-authority-data");
    }

    @Test
    void anUnreadableClientKeyIsNamedAsTheFieldWrittenInTheFile() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """.formatted(base64(RSA_USER.certificatePem()), base64("not a key")));
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("context \"c\": user \"u\": client-key-data ");
    }

    @Test
    void toStringSummarisesCertificatesBySubjectAndExpiryWithoutKeyMaterialOrTokens() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h:6443", certificate-authority-data: %s}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """.formatted(base64(CA.certificatePem()), base64(RSA_USER.certificatePem()),
                base64(RSA_USER.pkcs8KeyPem())));
        ClientConfig config = KubeconfigLoader.load(file, null);
        java.security.cert.X509Certificate ca = config.tls().certificateAuthorities().get(0);
        java.security.cert.X509Certificate user = config.tls().clientCertificate().chain().get(0);

        String text = config.toString();

        assertThat(text).contains("certificateAuthorities=[CN=test-ca (expires " + ca.getNotAfter().toInstant() + ")]")
                .contains("clientCertificate=ClientCertificate[CN=rsa-user (expires " + user.getNotAfter().toInstant()
                        + ")]");
        assertThat(text).doesNotContain("Signature", "modulus", "BEGIN", "PRIVATE")
                .doesNotContain(java.util.HexFormat.of().formatHex(ca.getSignature()).substring(0, 16));
        assertThat(text.length()).as("a summary, not the certificates").isLessThan(600);
        assertThat(config.withProxy(null).toString()).isEqualTo(text);
    }

    @Test
    void badBase64IsNamed() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", certificate-authority-data: "%%%%"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null))
                .hasMessageEndingWith("cluster \"c\": certificate-authority-data is not valid base64");
    }

    @Test
    void moreThanOneAuthenticationMethodIsRefused() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {token: t, username: a, password: b}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null))
                .hasMessageContaining("more than one authentication method [token, basic auth]");
    }

    @Test
    void anExecPluginOfV1NeedsItsInteractiveMode() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: x}}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null))
                .hasMessageContaining("user \"u\": exec.interactiveMode is required");
    }

    @Test
    void aServerThatIsNotAUrlIsNamed() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "10.0.0.1:6443"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null))
                .hasMessageContaining("cluster \"c\": server \"10.0.0.1:6443\" is not an absolute URL");
    }

    @Test
    void withoutAnyConfigurationTheMessageSaysWhatWasTried() {
        assertThatThrownBy(() -> KubeconfigLoader.fromEnvironment(Map.of("HOME", temp.toString()), null))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("KUBECONFIG is not set").hasMessageContaining(".kube/config does not exist");
    }

    @Test
    void inClusterWithoutATokenSaysSo() {
        assertThatThrownBy(() -> InClusterConfig.load(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1",
                "KUBERNETES_SERVICE_PORT", "443"), temp))
                .hasMessageContaining("the service-account token " + temp.resolve("token") + " is missing");
        assertThat(List.of()).isEmpty();
    }

    @Test
    void insecureSkipTlsVerifyBesideACertificateAuthorityIsRefused() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", insecure-skip-tls-verify: true, certificate-authority-data: %s}}]
                contexts: [{name: c, context: {cluster: c}}]
                """.formatted(base64(CA.certificatePem())));
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null))
                .hasMessageContaining("cluster \"c\": insecure-skip-tls-verify is true although a certificate-authority");
    }

    @Test
    void aProxyPasswordNeverShowsInToString() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", proxy-url: "http://me:hunter2@proxy:3128"}}]
                users: [{name: u, user: {token: secret-token}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);

        ClientConfig config = KubeconfigLoader.load(file, null);

        assertThat(config.proxy()).hasToString("http://me:hunter2@proxy:3128");
        assertThat(config.toString()).contains("proxy:3128").doesNotContain("hunter2", "secret-token");
    }

    @org.junit.jupiter.api.Test
    void theEnvironmentProxyAppliesOnlyWithoutAProxyUrl() throws Exception {
        Path plain = write("plain", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://api.example.com"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        Path withProxy = write("with-proxy", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://api.example.com", proxy-url: "socks5://own:1080"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);

        ClientConfig fromEnvironment = KubeconfigLoader.fromEnvironment(Map.of("KUBECONFIG", plain.toString(),
                "HTTPS_PROXY", "http://corporate:3128"), null);
        ClientConfig own = KubeconfigLoader.fromEnvironment(Map.of("KUBECONFIG", withProxy.toString(),
                "HTTPS_PROXY", "http://corporate:3128"), null);

        assertThat(fromEnvironment.proxy()).hasToString("http://corporate:3128");
        assertThat(own.proxy()).hasToString("socks5://own:1080");
    }

    @Test
    void anInvalidProxyUrlIsNamedWithoutItsPassword() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", proxy-url: "http://me:hunter2@proxy:3128/a b"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("kubeconfig " + file + ": context \"c\": cluster \"c\": proxy-url "
                        + "\"http://***@proxy:3128/a b\" is not a valid URL")
                .message().doesNotContain("hunter2");
    }

    @Test
    void anHttpsProxyUrlIsRefusedNamingTheFileAndCluster() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h", proxy-url: "https://me:hunter2@proxy:443"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("kubeconfig " + file + ": context \"c\": cluster \"c\": proxy-url "
                        + "\"https://***@proxy:443\" is an https:// proxy, which this client cannot use")
                .message().doesNotContain("hunter2");
    }

    @Test
    void aServerUrlWithUserInfoIsNamedWithoutIt() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://me:hunter2@/no-host"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("server \"https://***@/no-host\"")
                .message().doesNotContain("hunter2");
    }

    @Test
    void toStringHidesUserInfoOfTheServerAndTheProxy() {
        ClientConfig config = new ClientConfig(URI.create("https://me:hunter2@api:6443"), TlsSettings.defaults(),
                Credentials.none(), URI.create("socks5://me:hunter3@proxy:1080"), "default", "test");

        assertThat(config.toString()).contains("server=https://***@api:6443", "proxy=socks5://***@proxy:1080")
                .doesNotContain("hunter");
    }

    @Test
    void aConfigWithAnHttpsProxyCannotBeBuilt() {
        assertThatThrownBy(() -> new ClientConfig(URI.create("https://api:6443"), TlsSettings.defaults(),
                Credentials.none(), URI.create("https://me:hunter2@proxy:443"), "default", "test"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("proxy https://***@proxy:443 (from test) is an https:// proxy")
                .message().doesNotContain("hunter2");
    }

    // --- loading order (controller-runtime's: KUBECONFIG, in-cluster, ~/.kube/config) ---

    private Path homeWithKubeconfig() throws Exception {
        write("home/.kube/config", """
                current-context: laptop
                clusters: [{name: c, cluster: {server: "https://laptop.example:6443"}}]
                contexts: [{name: laptop, context: {cluster: c}}]
                """);
        return temp.resolve("home");
    }

    private Path serviceAccount() throws Exception {
        Path account = Files.createDirectories(temp.resolve("sa"));
        Files.writeString(account.resolve("token"), "pod-token");
        Files.writeString(account.resolve("namespace"), "operators");
        return account;
    }

    @Test
    void inAPodTheServiceAccountWinsOverAKubeconfigInTheHomeFolder() throws Exception {
        Map<String, String> pod = Map.of("HOME", homeWithKubeconfig().toString(), "KUBERNETES_SERVICE_HOST", "10.96.0.1",
                "KUBERNETES_SERVICE_PORT", "443");

        ClientConfig config = KubeconfigLoader.fromEnvironment(pod, null, serviceAccount());

        assertThat(config.server()).hasToString("https://10.96.0.1:443");
        assertThat(config.source()).startsWith("in-cluster");
        assertThat(config.namespace()).isEqualTo("operators");
    }

    @Test
    void inAPodAnExplicitKubeconfigStillWins() throws Exception {
        Path explicit = write("explicit", """
                current-context: e
                clusters: [{name: c, cluster: {server: "https://explicit.example:6443"}}]
                contexts: [{name: e, context: {cluster: c}}]
                """);
        Map<String, String> pod = Map.of("HOME", homeWithKubeconfig().toString(), "KUBERNETES_SERVICE_HOST", "10.96.0.1",
                "KUBERNETES_SERVICE_PORT", "443", "KUBECONFIG", explicit.toString());

        ClientConfig config = KubeconfigLoader.fromEnvironment(pod, null, serviceAccount());

        assertThat(config.server()).hasToString("https://explicit.example:6443");
    }

    @Test
    void withoutAServiceAccountTokenTheHomeKubeconfigIsUsedEvenWhereTheServiceVariablesAreSet() throws Exception {
        Map<String, String> noToken = Map.of("HOME", homeWithKubeconfig().toString(), "KUBERNETES_SERVICE_HOST",
                "10.96.0.1", "KUBERNETES_SERVICE_PORT", "443");

        ClientConfig config = KubeconfigLoader.fromEnvironment(noToken, null, temp.resolve("no-such-folder"));

        assertThat(config.server()).hasToString("https://laptop.example:6443");
    }

    @Test
    void outsideAPodTheHomeKubeconfigIsUsed() throws Exception {
        ClientConfig config = KubeconfigLoader.fromEnvironment(Map.of("HOME", homeWithKubeconfig().toString()), null,
                serviceAccount());

        assertThat(config.server()).hasToString("https://laptop.example:6443");
    }

    @Test
    void aPodWithoutATokenAndWithoutAKubeconfigSaysWhatThePodLacks() {
        Map<String, String> noToken = Map.of("HOME", temp.toString(), "KUBERNETES_SERVICE_HOST", "10.96.0.1",
                "KUBERNETES_SERVICE_PORT", "443");

        assertThatThrownBy(() -> KubeconfigLoader.fromEnvironment(noToken, null, temp.resolve("sa")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("the service-account token " + temp.resolve("sa").resolve("token") + " is missing");
    }

    @Test
    void aYamlErrorIsLocatedButTheTextAroundItIsNeverQuoted() throws Exception {
        Path file = write("config", """
                users:
                - name: u
                  user:
                    token: hunter2-secret: oops
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + file + " is not valid YAML at line 4, column 26")
                .hasNoCause();
    }

    @Test
    void aListWhereAStringBelongsIsNamedWithoutItsContent() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "https://h"}}]
                users: [{name: u, user: {token: [hunter2-secret]}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + file + ": context \"c\": field token must be a single value, not a list");
    }

    @Test
    void aNameThatSwallowedPartOfTheFileIsNotQuoted() throws Exception {
        // a stray quote makes the cluster's "name" run on over the users and their token
        Path file = write("config", """
                clusters:
                - name: "c
                  cluster: {server: https://h}
                users:
                - name: u
                  user: {token: hunter2-secret}
                - name: "
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessageMatching("kubeconfig .*: clusters\\[0\\] \\(\"<\\d+ characters, not shown>\"\\) has no cluster mapping")
                .message().doesNotContain("hunter2");
    }

    @Test
    void aServerWithAnotherSchemeIsNamedAsTheField() throws Exception {
        Path file = write("config", """
                current-context: c
                clusters: [{name: c, cluster: {server: "ftp://me:hunter2@h:21"}}]
                contexts: [{name: c, context: {cluster: c}}]
                """);
        assertThatThrownBy(() -> KubeconfigLoader.load(file, null)).isInstanceOf(ConfigException.class)
                .hasMessage("kubeconfig " + file + ": context \"c\": cluster \"c\": server \"ftp://***@h:21\" must start "
                        + "with https:// or http://");
    }
}

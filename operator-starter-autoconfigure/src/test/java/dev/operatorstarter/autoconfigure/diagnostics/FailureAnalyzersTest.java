package dev.operatorstarter.autoconfigure.diagnostics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.ReflectorException;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.discovery.ResourceLookup;
import dev.operatorstarter.manager.ResourceNotServedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.FailureHandler;

/**
 * The failure analyzers' messages for configuration problems, on the exceptions the real loader
 * throws. (The RBAC case needs a server: see {@code OperatorApplicationIT}.)
 */
class FailureAnalyzersTest {

    @TempDir
    Path home;

    @Test
    void everyAnalyzerIsRegisteredWithSpringBoot() {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(FailureAnalyzer.class, FailureHandler.logging(org.apache.commons.logging.LogFactory.getLog(getClass())));
        assertThat(analyzers).hasAtLeastOneElementOfType(MissingKubernetesConfigFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(UnknownContextFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(UnreadableCertificateFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(CacheSyncFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(InvalidKubernetesConfigFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(InvalidReconcilerFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(MissingCrdFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(InvalidWebhookFailureAnalyzer.class);
    }

    @Test
    void aWebhookServerThatCannotStartIsExplainedWithTheProblemAndTheWayOut() {
        FailureAnalysis analysis = new InvalidWebhookFailureAnalyzer().analyze(new IllegalStateException("wrapped",
                new dev.operatorstarter.autoconfigure.webhook.InvalidWebhookException("operator.webhook.ca-injection "
                        + "needs a KubernetesClient bean")));
        assertThat(analysis.getDescription()).isEqualTo("The webhook server (operator.webhook.enabled=true) cannot "
                + "start: operator.webhook.ca-injection needs a KubernetesClient bean.");
        assertThat(analysis.getAction()).contains("operator.webhook.* property").contains("docs/webhooks.md");
    }

    @Test
    void withoutKubeconfigOutsideAPodTheAnalysisSaysWhatWasTriedAndHowToPointAtACluster() {
        Throwable failure = catchThrowable(() -> KubeconfigLoader.fromEnvironment(Map.of("HOME", home.toString()), null));
        FailureAnalysis analysis = new MissingKubernetesConfigFailureAnalyzer().analyze(wrapped(failure));
        assertThat(analysis.getDescription()).contains("has no cluster to connect to: no Kubernetes configuration found")
                .contains("KUBECONFIG is not set").contains(home.resolve(".kube/config").toString())
                .contains("KUBERNETES_SERVICE_HOST is not set");
        assertThat(analysis.getAction()).contains("operator.client.kubeconfig").contains("KUBECONFIG")
                .contains("service account").contains("operator.enabled=false");
    }

    @Test
    void anUnknownContextIsNamedWithTheContextsThatExist() throws IOException {
        Path kubeconfig = Files.writeString(home.resolve("config"), """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: dev, context: {cluster: c, user: u}}, {name: prod, context: {cluster: c, user: u}}]
                """);
        Throwable failure = catchThrowable(() -> KubeconfigLoader.load(kubeconfig, "staging"));
        FailureAnalysis analysis = new UnknownContextFailureAnalyzer().analyze(wrapped(failure));
        assertThat(analysis.getDescription()).contains("\"staging\" does not exist").contains(kubeconfig.toString());
        assertThat(analysis.getAction()).contains("operator.client.context").contains("dev, prod");
    }

    @Test
    void anUnreadableCertificateIsNamedWithItsFileAndField() throws IOException {
        Path kubeconfig = Files.writeString(home.resolve("config"), """
                apiVersion: v1
                kind: Config
                current-context: c
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", certificate-authority: ca.pem}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        Files.writeString(home.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
        Throwable failure = catchThrowable(() -> KubeconfigLoader.load(kubeconfig, null));
        assertThat(failure).isInstanceOf(ConfigException.UnreadableCertificate.class);
        FailureAnalysis analysis = new UnreadableCertificateFailureAnalyzer().analyze(wrapped(failure));
        assertThat(analysis.getDescription()).contains("cannot be used").contains(kubeconfig.toString())
                .contains("certificate-authority");
        assertThat(analysis.getAction()).contains("readable PEM file");
    }

    @Test
    void aMissingClientCertificateFileIsAnUnreadableCertificate() throws IOException {
        Path kubeconfig = Files.writeString(home.resolve("config"), """
                apiVersion: v1
                kind: Config
                current-context: c
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users: [{name: u, user: {client-certificate: admin.crt, client-key: admin.key}}]
                contexts: [{name: c, context: {cluster: c, user: u}}]
                """);
        Throwable failure = catchThrowable(() -> KubeconfigLoader.load(kubeconfig, null));
        assertThat(failure).isInstanceOf(ConfigException.UnreadableCertificate.class)
                .hasMessageContaining(home.resolve("admin.crt").toString()).hasMessageContaining("does not exist");
    }

    @Test
    void aNamedKubeconfigThatDoesNotExistIsExplainedWithItsPath() {
        Path missing = home.resolve("nowhere/kubeconfig");
        Throwable failure = catchThrowable(() -> KubeconfigLoader.load(missing, null));
        FailureAnalysis analysis = new InvalidKubernetesConfigFailureAnalyzer().analyze(wrapped(failure));
        assertThat(analysis.getDescription()).contains("cannot use its Kubernetes configuration")
                .contains(missing.toString()).contains("does not exist");
        assertThat(analysis.getAction()).contains("operator.client.kubeconfig").contains("KUBECONFIG");
    }

    @Test
    void aFileThatIsNotAKubeconfigIsExplainedWithItsPath() throws IOException {
        Path notAKubeconfig = Files.writeString(home.resolve("config"), "- just\n- a list\n");
        Throwable failure = catchThrowable(() -> KubeconfigLoader.load(notAKubeconfig, null));
        FailureAnalysis analysis = new InvalidKubernetesConfigFailureAnalyzer().analyze(wrapped(failure));
        assertThat(analysis.getDescription()).contains(notAKubeconfig.toString()).contains("not a YAML mapping");
    }

    @Test
    void theCasesWithAnAnalyzerOfTheirOwnAreLeftToIt() {
        Throwable failure = catchThrowable(() -> KubeconfigLoader.fromEnvironment(Map.of("HOME", home.toString()), null));
        assertThat(failure).isInstanceOf(ConfigException.NotFound.class);
        assertThat(new InvalidKubernetesConfigFailureAnalyzer().analyze(wrapped(failure))).isNull();
    }

    /** As Spring Boot sees it: the loader's exception deep inside bean creation failures. */
    private static Throwable wrapped(Throwable cause) {
        assertThat(cause).isNotNull();
        return new IllegalStateException("Error creating bean with name 'kubernetesClientConfig'",
                new RuntimeException("Failed to instantiate", cause));
    }

    @Test
    void aSyncThatRanOutOfTimeWithoutErrorsIsToldToWaitLongerOrCacheLessAndAFailingOneToFixTheError() {
        CacheSyncFailureAnalyzer analyzer = new CacheSyncFailureAnalyzer();
        InformerSyncException slow = new InformerSyncException("start-up", Duration.ofMinutes(2),
                List.of(new InformerSyncException.Unsynced("pods", null)));
        InformerSyncException failing = new InformerSyncException("start-up", Duration.ofMinutes(2),
                List.of(new InformerSyncException.Unsynced("pods", new ReflectorException.ListFailed("pods",
                        "connection refused", new java.net.ConnectException("connection refused")))));

        assertThat(analyzer.analyze(slow).getAction()).contains("still listing")
                .contains("operator.informers.cache-sync-timeout");
        assertThat(analyzer.analyze(failing).getDescription()).contains("pods: ").contains("connection refused");
        assertThat(analyzer.analyze(failing).getAction()).contains("Fix what the errors above say")
                .doesNotContain("cache-sync-timeout");
    }

    @Test
    void aCrdThatServesOnlyOtherVersionsIsNamedAsSuchAndTheActionSaysToMatchTheVersion() {
        ResourceNotServedException notServed = new ResourceNotServedException(List.of(new ResourceLookup.NotServed(
                new GroupVersionResource("demo.example.com", "v1", "greetings"), false, List.of("v1alpha1"))),
                "https://api:6443");

        FailureAnalysis analysis = new MissingCrdFailureAnalyzer().analyze(notServed);

        assertThat(analysis.getDescription()).endsWith("\t- the CRD for greetings.demo.example.com does not serve "
                + "version v1 (it serves v1alpha1; no resource greetings in demo.example.com/v1 on the API server at "
                + "https://api:6443)");
        assertThat(analysis.getAction()).startsWith("Make the resource class's @Version one the CRD serves");
    }
}

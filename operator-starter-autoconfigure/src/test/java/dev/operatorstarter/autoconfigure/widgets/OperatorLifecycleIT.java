package dev.operatorstarter.autoconfigure.widgets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.MissingPermissionsException;
import dev.operatorstarter.autoconfigure.OperatorStatus;
import dev.operatorstarter.autoconfigure.Widget;
import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.ResourceNotServedException;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The starter's lifecycle with whole applications on the real API server: a missing CRD failing
 * start-up at once, or waited for with readiness naming it, a second replica taking over the lease after a graceful shutdown, and a
 * start-up refused by RBAC failing at once with every missing rule (the permission check), or at
 * the sync timeout without the check, and a server that is not there or refuses the credentials
 * failing the start-up at once.
 */
@KubernetesTest(crds = "crds/widgets.yaml")
class OperatorLifecycleIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static KubernetesClient admin;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        admin.close();
    }

    private static SpringApplicationBuilder application(Class<?> source, ClusterConnection connection,
            String... properties) {
        return new SpringApplicationBuilder(source).properties("operator.client.kubeconfig=" + connection.kubeconfig())
                .properties(properties);
    }

    @Test
    @Timeout(60) // the sync timeout is 5 minutes: only the discovery check can end start-up in time
    void aMissingCrdFailsStartUpAtOnceNamingTheCrdInsteadOfWaitingOutTheSyncTimeout(ClusterConnection connection,
            TestNamespace namespace) {
        long starting = System.nanoTime();
        Throwable failure = catchThrowable(() -> application(LateCrdApplication.class, connection,
                "operator.informers.cache-sync-timeout=5m", "operator.leader-election.enabled=false",
                "operator.informers.namespaces=" + namespace.name()).web(WebApplicationType.NONE).run());
        long tookMillis = Duration.ofNanos(System.nanoTime() - starting).toMillis();

        assertThat(failure).hasRootCauseInstanceOf(ResourceNotServedException.class);
        String server = KubeconfigLoader.load(connection.kubeconfig(), null).server().toString();
        String missing = "the CRD for sprockets.starter.operatorstarter.dev is not installed (no resource sprockets in "
                + "starter.operatorstarter.dev/v1 on the API server at " + server + ")";
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).isEqualTo(
                "The operator's informers need resources the API server does not serve:\n\t- " + missing);
        assertThat(analysis.getAction()).contains("kubectl apply -f").contains("operator.informers.on-missing-crd=wait");
        System.out.printf("start-up failed on the missing CRD after %d ms (sync timeout 5 min)%n", tookMillis);
    }

    @Test
    void waitingForAMissingCrdReadinessNamesItAndTheOperatorStartsOnceItIsAppliedAndSurvivesItsDeletion(
            ClusterConnection connection, TestNamespace namespace) throws Exception {
        String crdName = "sprockets.starter.operatorstarter.dev";
        try (ConfigurableApplicationContext context = application(LateCrdApplication.class, connection,
                "server.port=0", "operator.informers.on-missing-crd=wait",
                "operator.informers.wait-for-sync-on-startup=false", "operator.leader-election.enabled=false",
                "operator.informers.namespaces=" + namespace.name(),
                "management.endpoint.health.show-details=always",
                "management.endpoints.web.exposure.include=health,operator").web(WebApplicationType.REACTIVE).run()) {
            String actuator = "http://localhost:" + context.getEnvironment().getProperty("local.server.port") + "/actuator";
            String readiness = actuator + "/health/readiness";
            // The CRD does not exist yet: readiness is DOWN and says which CRD start-up waits for.
            HttpResponse<String> down = await().atMost(WAIT).until(() -> get(readiness),
                    response -> response.body().contains("\"waitingFor\""));
            assertThat(down.statusCode()).isEqualTo(503);
            JsonNode informers = JSON.readTree(down.body()).path("components").path("informers");
            assertThat(informers.path("status").asString()).isEqualTo("DOWN");
            assertThat(informers.path("details").path("waitingFor").get(0).asString())
                    .startsWith("the CRD for " + crdName + " is not installed (no resource sprockets in "
                            + "starter.operatorstarter.dev/v1 on the API server at ");
            // the operator endpoint says the same
            assertThat(JSON.readTree(get(actuator + "/operator").body()).path("waitingFor").get(0).asString())
                    .isEqualTo(informers.path("details").path("waitingFor").get(0).asString());

            admin.apiextensionsV1().customResourceDefinitions().create(sprocketsCrd());

            HttpResponse<String> up = await().atMost(WAIT).until(() -> get(readiness),
                    response -> response.statusCode() == 200);
            assertThat(JSON.readTree(up.body()).path("components").path("informers").path("details").has("waitingFor"))
                    .isFalse();
            assertThat(JSON.readTree(get(actuator + "/operator").body()).path("waitingFor").size()).isZero();
            OperatorStatus status = context.getBean(OperatorStatus.class);
            await().atMost(WAIT).until(() -> status.controllers().get(0).running());

            // The CRD goes away while the operator runs: the informer reports it and recovers once it is back.
            admin.apiextensionsV1().customResourceDefinitions().delete(crdName);
            await().atMost(WAIT).until(() -> status.informers().get(0).lastError() != null);
            assertThat(context.isActive()).isTrue();
            assertThat(status.controllers().get(0).running()).isTrue();
            await().atMost(WAIT).until(() -> admin.apiextensionsV1().customResourceDefinitions().find(crdName).isEmpty());
            admin.apiextensionsV1().customResourceDefinitions().create(sprocketsCrd());
            await().atMost(WAIT).until(() -> get(readiness), response -> response.statusCode() == 200);
            assertThat(status.informers().get(0).cached()).isZero();
        } finally {
            if (admin.apiextensionsV1().customResourceDefinitions().find(crdName).isPresent()) {
                admin.apiextensionsV1().customResourceDefinitions().delete(crdName);
            }
        }
    }

    @Test
    void aSecondReplicaTakesOverWithinSecondsOfTheLeadersGracefulShutdown(ClusterConnection connection,
            TestNamespace namespace) {
        // A lease of 30 s: without the release on shutdown, the takeover could not happen in under 30 s.
        String[] replica = {"operator.leader-election.lease-name=takeover-" + UUID.randomUUID(),
                "operator.leader-election.lease-namespace=" + namespace.name(),
                "operator.leader-election.lease-duration=30s", "operator.leader-election.renew-deadline=20s",
                "operator.leader-election.retry-period=1s", "operator.informers.namespaces=" + namespace.name()};
        ConfigurableApplicationContext first = application(WidgetOperatorApplication.class, connection, replica)
                .web(WebApplicationType.NONE).run();
        try (ConfigurableApplicationContext second = application(WidgetOperatorApplication.class, connection, replica)
                .web(WebApplicationType.NONE).run()) {
            // its controllers start on the term's own thread, a moment after it became the leader
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(first.getBean(Manager.class).leaderElector().orElseThrow().isLeader()).isTrue();
                assertThat(first.getBean(OperatorStatus.class).controllers()).allMatch(c -> c.running());
            });
            await().atMost(WAIT).until(() -> !second.getBean(Manager.class).leaderElector().orElseThrow().leader().isEmpty());
            assertThat(second.getBean(Manager.class).leaderElector().orElseThrow().isLeader()).isFalse();
            assertThat(second.getBean(OperatorStatus.class).controllers()).allMatch(c -> !c.running());
            assertThat(first.getBean(OperatorStatus.class).controllers()).allMatch(c -> c.running());
            OperatorStatus firstStatus = first.getBean(OperatorStatus.class);

            long closing = System.nanoTime();
            first.close();
            assertThat(firstStatus.controllers()).allMatch(c -> !c.running());

            await().atMost(Duration.ofSeconds(10)).until(() -> second.getBean(Manager.class).leaderElector().orElseThrow().isLeader());
            long tookMillis = Duration.ofNanos(System.nanoTime() - closing).toMillis();
            await().atMost(WAIT).until(() -> second.getBean(OperatorStatus.class).controllers().stream()
                    .allMatch(c -> c.running()));
            System.out.printf("second replica led %d ms after the first began its graceful shutdown (lease 30 s)%n",
                    tookMillis);
        } finally {
            first.close();
        }
    }

    @Test
    void shutdownLetsAReconcileInFlightFinishBeforeTheApplicationStops(ClusterConnection connection,
            TestNamespace namespace) throws Exception {
        ConfigurableApplicationContext context = application(SlowReconcileApplication.class, connection,
                "operator.leader-election.enabled=false", "operator.informers.namespaces=" + namespace.name())
                .web(WebApplicationType.NONE).run();
        SlowReconcileApplication.Progress progress = context.getBean(SlowReconcileApplication.Progress.class);
        admin.coreV1().configMaps().inNamespace(namespace.name())
                .create(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("slow")
                        .endMetadata().build());
        assertThat(progress.started.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(progress.outcome).as("a reconcile is in flight").hasValue("running");

        context.close();

        assertThat(progress.outcome).hasValue("finished");
    }

    @Test
    @Timeout(60) // the sync timeout is 5 minutes: only the permission check can end start-up in time
    void aStartWithoutTheRulesTheCodeNeedsFailsAtOnceNamingEveryMissingRuleAsYaml(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) {
        Path kubeconfig = restrictedKubeconfig(connection, namespace, folder);
        String identity = "system:serviceaccount:" + namespace.name() + ":nobody";
        admin.rbacV1().roles().inNamespace(namespace.name()).create(new RoleBuilder().withNewMetadata()
                .withName("widgets-read").endMetadata().addNewRule().withApiGroups("starter.operatorstarter.dev")
                .withResources("widgets").withVerbs("get", "list", "watch").endRule().build());
        admin.rbacV1().roleBindings().inNamespace(namespace.name()).create(new RoleBindingBuilder().withNewMetadata()
                .withName("widgets-read").endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role").withName("widgets-read").endRoleRef().addNewSubject().withKind("ServiceAccount")
                .withName("nobody").withNamespace(namespace.name()).endSubject().build());
        await().atMost(WAIT).until(() -> canList(kubeconfig, namespace)); // RBAC is served from a cache

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(WidgetOperatorApplication.class)
                .web(WebApplicationType.NONE)
                .properties("operator.client.kubeconfig=" + kubeconfig, "operator.informers.cache-sync-timeout=5m",
                        "operator.informers.namespaces=" + namespace.name(), "operator.leader-election.enabled=false")
                .run());

        assertThat(failure).hasRootCauseInstanceOf(MissingPermissionsException.class);
        MissingPermissionsException missing = (MissingPermissionsException) rootCause(failure);
        assertThat(missing.identity()).startsWith(identity);
        assertThat(missing.missing()).containsOnlyKeys(namespace.name());
        String yaml = missing.missing().get(namespace.name()).toYaml();
        assertThat(yaml).doesNotContain("verbs: [\"get\", \"list\", \"watch\", \"patch\"]");
        assertThat(yaml).as("only what the Role does not grant: patch of widgets, not get, list, watch").contains("""
                finalizer starter.operatorstarter.dev/cleanup added and removed (controller widget)
                - apiGroups: ["starter.operatorstarter.dev"]
                  resources: ["widgets"]
                  verbs: ["patch"]
                """).contains("""
                - apiGroups: [""]
                  resources: ["configmaps"]
                  verbs: ["get", "list", "watch", "create", "patch"]
                """).contains("""
                - apiGroups: [""]
                  resources: ["secrets"]
                  verbs: ["get", "list", "watch"]
                """).contains("""
                - apiGroups: ["events.k8s.io"]
                  resources: ["events"]
                  verbs: ["create", "patch"]
                """);
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).contains(identity).contains("in namespace " + namespace.name())
                .contains("  resources: [\"configmaps\"]");
        assertThat(analysis.getAction()).contains("Add the rules above").contains("@Permission")
                .contains("operator.permission-check.enabled=false");
    }

    @Test
    @Timeout(60)
    void aKubeconfigPointingAtNothingFailsStartUpWithinTheCheckNamingTheServerItTried(@TempDir Path folder)
            throws Exception {
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        Path kubeconfig = kubeconfig(folder, "https://127.0.0.1:" + closed, null, "a-token");

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(WidgetOperatorApplication.class)
                .web(WebApplicationType.NONE)
                .properties("operator.client.kubeconfig=" + kubeconfig, "operator.informers.cache-sync-timeout=5m",
                        "operator.leader-election.enabled=false").run());

        assertThat(failure).hasRootCauseInstanceOf(java.net.ConnectException.class);
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).startsWith("Cannot reach the API server at https://127.0.0.1:" + closed
                + " (from kubeconfig " + kubeconfig).contains("Connection refused").doesNotContain("a-token");
        assertThat(analysis.getAction()).contains("current context");
    }

    @Test
    @Timeout(60)
    void aServerThatAcceptsButNeverAnswersFailsStartUpAtTheChecksDeadline(@TempDir Path folder) throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> { // accepts connections and never writes a byte: a hung server
                List<java.net.Socket> held = new java.util.ArrayList<>();
                try {
                    while (true) {
                        held.add(silent.accept());
                    }
                } catch (java.io.IOException closed) {
                    held.forEach(socket -> {
                        try {
                            socket.close();
                        } catch (java.io.IOException ignored) {
                            // closing anyway
                        }
                    });
                }
            }, "silent-server");
            acceptor.setDaemon(true);
            acceptor.start();
            Path kubeconfig = kubeconfig(folder, "https://127.0.0.1:" + silent.getLocalPort(), null, "a-token");

            Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(WidgetOperatorApplication.class)
                    .web(WebApplicationType.NONE)
                    .properties("operator.client.kubeconfig=" + kubeconfig, "operator.informers.cache-sync-timeout=5m",
                            "operator.permission-check.timeout=2s", "operator.leader-election.enabled=false").run());

            assertThat(failure).isNotNull();
            FailureAnalysis analysis = analyze(failure);
            assertThat(analysis.getDescription()).startsWith("Cannot reach the API server at https://127.0.0.1:"
                    + silent.getLocalPort());
        }
    }

    @Test
    @Timeout(60)
    void credentialsTheServerRefusesFailStartUpAtOnceSayingSo(ClusterConnection connection, @TempDir Path folder)
            throws Exception {
        Path kubeconfig = kubeconfig(folder, connection.server().toString(), connection.certificateAuthorityPem(),
                "not-a-token-the-server-knows");

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(WidgetOperatorApplication.class)
                .web(WebApplicationType.NONE)
                .properties("operator.client.kubeconfig=" + kubeconfig, "operator.informers.cache-sync-timeout=5m",
                        "operator.leader-election.enabled=false").run());

        assertThat(failure).hasRootCauseInstanceOf(ApiException.Unauthorized.class);
        FailureAnalysis analysis = analyze(failure);
        assertThat(analysis.getDescription()).startsWith("The API server at " + connection.server())
                .contains("refused the credentials of kubeconfig " + kubeconfig).contains("401 Unauthorized")
                .doesNotContain("not-a-token-the-server-knows");
        assertThat(analysis.getAction()).contains("Renew the credentials");
    }

    @Test
    void withoutThePermissionCheckAStartRefusedByRbacIsStillExplainedAtTheSyncTimeout(ClusterConnection connection,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        Path kubeconfig = restrictedKubeconfig(connection, namespace, folder);

        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(WidgetOperatorApplication.class)
                .web(WebApplicationType.NONE)
                .properties("operator.client.kubeconfig=" + kubeconfig, "operator.informers.cache-sync-timeout=5s",
                        "operator.informers.namespaces=" + namespace.name(), "operator.leader-election.enabled=false",
                        "operator.events.enabled=false", "operator.permission-check.enabled=false")
                .run());

        assertThat(failure).hasRootCauseInstanceOf(InformerSyncException.class);
        FailureAnalysis analysis = analyze(failure);
        String identity = "system:serviceaccount:" + namespace.name() + ":nobody";
        assertThat(analysis.getDescription())
                .contains("did not sync within PT5S")
                .contains("widgets.starter.operatorstarter.dev/" + namespace.name() + ": " + identity + " may not ")
                .containsPattern("may not (list|watch) widgets\\.starter\\.operatorstarter\\.dev in namespace "
                        + namespace.name() + " \\(403 Forbidden\\)")
                .containsPattern("configmaps/" + namespace.name() + ": " + identity + " may not (list|watch) configmaps");
        assertThat(analysis.getAction()).contains("Grant " + identity)
                .contains("apiGroups: [\"starter.operatorstarter.dev\"]").contains("resources: [\"widgets\"]")
                .contains("verbs: [\"get\", \"list\", \"watch\"]");
    }

    private static boolean canList(Path kubeconfig, TestNamespace namespace) {
        try (KubernetesClient restricted = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null))) {
            restricted.resources(Widget.class).inNamespace(namespace.name()).list();
            return true;
        } catch (ApiException.Forbidden e) {
            return false;
        }
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }

    /** A kubeconfig for {@code server} with a bearer token, trusting {@code caPem} (or skipping verification without one). */
    private static Path kubeconfig(Path folder, String server, String caPem, String token) throws java.io.IOException {
        String cluster = caPem == null ? "    insecure-skip-tls-verify: true\n"
                : "    certificate-authority-data: " + Base64.getEncoder().encodeToString(caPem.getBytes(
                        StandardCharsets.UTF_8)) + "\n";
        Path file = folder.resolve("kubeconfig");
        Files.writeString(file, "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: " + server
                + "\n" + cluster + "users:\n- name: u\n  user:\n    token: " + token + "\ncontexts:\n- name: x\n"
                + "  context:\n    cluster: c\n    user: u\n    namespace: default\ncurrent-context: x\n");
        return file;
    }

    /** What Spring Boot prints: the first registered analyzer that understands the failure. */
    private static FailureAnalysis analyze(Throwable failure) {
        List<FailureAnalyzer> analyzers = SpringFactoriesLoader.forDefaultResourceLocation().load(FailureAnalyzer.class,
                SpringFactoriesLoader.FailureHandler.logging(
                        org.apache.commons.logging.LogFactory.getLog(OperatorLifecycleIT.class)));
        return analyzers.stream().map(analyzer -> analyzer.analyze(failure)).filter(Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("no failure analyzer explains " + failure));
    }

    /** A kubeconfig for a service account without any role, with a real token. */
    private static Path restrictedKubeconfig(ClusterConnection connection, TestNamespace namespace, Path folder) {
        return ServiceAccounts.connectAs(connection, namespace.name(), "nobody", Duration.ofHours(1),
                folder.resolve("kubeconfig")).kubeconfig();
    }

    private static CustomResourceDefinition sprocketsCrd() {
        return new CustomResourceDefinitionBuilder().withNewMetadata().withName("sprockets.starter.operatorstarter.dev")
                .endMetadata().withNewSpec().withGroup("starter.operatorstarter.dev").withScope("Namespaced")
                .withNewNames().withPlural("sprockets").withSingular("sprocket").withKind("Sprocket").endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true).withNewSchema()
                .withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build()
                .send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

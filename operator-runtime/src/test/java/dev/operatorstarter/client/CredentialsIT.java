package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.config.ConfigException;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.internal.Await;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Exec credential plugins and rotating token files, with real tokens judged by the real server's RBAC. */
@KubernetesTest
class CredentialsIT {

    private KubernetesClient admin;
    private ClusterConnection connection;
    private String namespace;

    @TempDir
    Path temp;

    @BeforeEach
    void setUp(ClusterConnection connection, TestNamespace namespace) {
        this.connection = connection;
        this.namespace = namespace.name();
        this.admin = Clients.admin(connection);
        admin.rbacV1().roles().inNamespace(this.namespace).create(new RoleBuilder().withNewMetadata()
                .withName("read-config").endMetadata().addNewRule().withApiGroups("").withResources("configmaps")
                .withVerbs("get", "list").endRule().build());
    }

    @AfterEach
    void tearDown() {
        admin.close();
    }

    /** A real token for a new service account that may read config maps in the test namespace. */
    private String tokenFor(String account) {
        String token = ServiceAccounts.connectAs(connection, namespace, account, Duration.ofHours(1),
                temp.resolve(account + ".kubeconfig")).bearerToken();
        admin.rbacV1().roleBindings().inNamespace(namespace).create(new RoleBindingBuilder().withNewMetadata()
                .withName(account).endMetadata().withNewRoleRef().withApiGroup("rbac.authorization.k8s.io")
                .withKind("Role").withName("read-config").endRoleRef().addNewSubject().withKind("ServiceAccount")
                .withName(account).withNamespace(namespace).endSubject().build());
        return token;
    }

    private String cluster() {
        return "clusters: [{name: c, cluster: {server: \"" + connection.server() + "\", certificate-authority-data: "
                + Base64.getEncoder().encodeToString(connection.certificateAuthorityPem().getBytes(StandardCharsets.UTF_8))
                + "}}]\ncontexts: [{name: c, context: {cluster: c, user: u, namespace: " + namespace + "}}]\n"
                + "current-context: c\n";
    }

    private Path script(String name, String body) throws Exception {
        Path script = Files.writeString(temp.resolve(name), "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private KubernetesClient execClient(String command) throws Exception {
        Path kubeconfig = Files.writeString(temp.resolve("config"), cluster() + """
                users:
                - name: u
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      command: %s
                      env: [{name: STATE, value: "%s"}]
                      interactiveMode: Never
                """.formatted(command, temp));
        return KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
    }

    private int runs() {
        Path counter = temp.resolve("runs");
        try {
            return Files.exists(counter) ? Files.readAllLines(counter).size() : 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anExecPluginTokenIsUsedAndCachedWhileItHasNoExpiry() throws Exception {
        Files.writeString(temp.resolve("token"), tokenFor("exec-reader"));
        script("get-token.sh", """
                echo run >> "$STATE/runs"
                printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' \
                  "$(cat "$STATE/token")"
                """);

        try (KubernetesClient client = execClient("./get-token.sh")) { // relative to the kubeconfig's folder
            client.coreV1().configMaps().inNamespace(namespace).list();
            client.coreV1().configMaps().inNamespace(namespace).list();
        }

        assertThat(runs()).isEqualTo(1);
    }

    @Test
    void anExecPluginRunsAgainAfterA401AndTheRequestSucceeds() throws Exception {
        Files.writeString(temp.resolve("token"), tokenFor("exec-rerun"));
        script("get-token.sh", """
                echo run >> "$STATE/runs"
                if [ "$(wc -l < "$STATE/runs")" -eq 1 ]; then token=not-a-valid-token; else token="$(cat "$STATE/token")"; fi
                printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"2099-01-01T00:00:00Z"}}' "$token"
                """);

        try (KubernetesClient client = execClient("./get-token.sh")) {
            assertThat(client.coreV1().configMaps().inNamespace(namespace).list().items()).isNotNull();
        }

        assertThat(runs()).isEqualTo(2);
    }

    @Test
    void aFailingExecPluginSaysWhichAndShowsItsStandardError() throws Exception {
        script("get-token.sh", "echo 'error: login required, run my-login' >&2\nexit 3\n");

        try (KubernetesClient client = execClient("./get-token.sh")) {
            assertThatThrownBy(() -> client.coreV1().configMaps().inNamespace(namespace).list())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("exec credential plugin \"./get-token.sh\"")
                    .hasMessageContaining("exited with code 3")
                    .hasMessageContaining("login required, run my-login");
        }
    }

    @Test
    void anExecPluginPrintingBadJsonIsReported() throws Exception {
        script("get-token.sh", "echo 'token: not json'\n");

        try (KubernetesClient client = execClient("./get-token.sh")) {
            assertThatThrownBy(() -> client.coreV1().configMaps().inNamespace(namespace).list())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("printed output that is not valid JSON");
        }
    }

    @Test
    void aRotatedTokenFileIsPickedUpWithoutARestart() throws Exception {
        Path tokenFile = Files.writeString(temp.resolve("sa-token"), tokenFor("first"));
        String second = tokenFor("second");
        Path kubeconfig = Files.writeString(temp.resolve("config"), cluster()
                + "users: [{name: u, user: {tokenFile: sa-token}}]\n");

        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null),
                ClientOptions.builder().tokenFileRefresh(Duration.ofMillis(200)).build())) {
            String before = whoAmI(client);
            // the kubelet rotating a projected token: write aside, then swap in one step
            Path next = Files.writeString(temp.resolve("sa-token.next"), second);
            Files.move(next, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Await.condition("the client to use the rotated token", Duration.ofSeconds(20), Duration.ofMillis(100),
                    () -> whoAmI(client).endsWith(":second"));

            assertThat(before).isEqualTo("system:serviceaccount:" + namespace + ":first");
        }
    }

    @Test
    void aTokenRevokedRightAfterItsFileRotatedLosesNoRequestUnderLoad() throws Exception {
        Path tokenFile = Files.writeString(temp.resolve("sa-token"), tokenFor("revoked"));
        String second = tokenFor("successor");
        Path kubeconfig = Files.writeString(temp.resolve("config"), cluster()
                + "users: [{name: u, user: {tokenFile: sa-token}}]\n");
        // Read every 10 minutes only: the client can learn of the rotation from the 401s alone.
        ClientOptions options = ClientOptions.builder().tokenFileRefresh(Duration.ofMinutes(10)).build();

        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null), options);
                KubernetesClient old = KubernetesClient.create(
                        KubeconfigLoader.load(temp.resolve("revoked.kubeconfig"), null));
                Load load = new Load(4, () -> client.coreV1().configMaps().inNamespace(namespace).list())) {
            load.awaitEachWorkerSucceeded(5, "before the rotation");

            Path next = Files.writeString(temp.resolve("sa-token.next"), second);
            Files.move(next, tokenFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            admin.coreV1().serviceAccounts().inNamespace(namespace).delete("revoked");
            Await.condition("the server to reject the deleted account's token", Duration.ofSeconds(30),
                    Duration.ofMillis(100), () -> rejected(old));
            load.awaitEachWorkerSucceeded(5, "after the old token was rejected");
            load.stop();

            assertThat(load.failures()).as("requests that failed during the rotation").isEmpty();
            assertThat(whoAmI(client)).isEqualTo("system:serviceaccount:" + namespace + ":successor");
        }
    }

    @Test
    void anExecTokenExpiringUnderLoadRunsThePluginOncePerExpiryAndLosesNoRequest() throws Exception {
        Files.writeString(temp.resolve("token"), tokenFor("exec-expiring"));
        // every token the plugin prints expires 2 s later
        script("get-token.sh", """
                echo run >> "$STATE/runs"
                printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}' \
                  "$(cat "$STATE/token")" "$(date -u -d '+2 seconds' +%Y-%m-%dT%H:%M:%SZ)"
                """);

        try (KubernetesClient client = execClient("./get-token.sh");
                Load load = new Load(4, () -> client.coreV1().configMaps().inNamespace(namespace).list())) {
            load.awaitEachWorkerSucceeded(5, "with the first token");
            Await.condition("the plugin to have run for three expired tokens", Duration.ofSeconds(30),
                    Duration.ofMillis(100), () -> runs() >= 4);
            load.awaitEachWorkerSucceeded(5, "after the third expiry");
            load.stop();
            int runs = runs();
            Duration elapsed = load.elapsed();

            assertThat(load.failures()).as("requests that failed across the expiries").isEmpty();
            // one run per token lifetime (2 s, less the second the timestamp's truncation may take), not one per worker
            assertThat(runs).as("plugin runs in %s", elapsed).isLessThanOrEqualTo(2 + (int) elapsed.toSeconds());
        }
    }

    private static boolean rejected(KubernetesClient client) {
        try {
            client.coreV1().configMaps().inNamespace("default").list();
            return false;
        } catch (ApiException.Unauthorized e) {
            return true;
        } catch (ApiException.Forbidden e) {
            return false; // authenticated, not yet rejected
        }
    }

    /** Workers that repeat one request until stopped, keeping count of successes and every failure. */
    private static final class Load implements AutoCloseable {
        private final ExecutorService workers;
        private final AtomicLong[] successes;
        private final List<Throwable> failures = new CopyOnWriteArrayList<>();
        private final long startedAt = System.nanoTime();
        private volatile boolean running = true;

        Load(int threads, Runnable request) {
            workers = Executors.newFixedThreadPool(threads);
            successes = new AtomicLong[threads];
            for (int i = 0; i < threads; i++) {
                AtomicLong count = successes[i] = new AtomicLong();
                workers.execute(() -> {
                    while (running) {
                        try {
                            request.run();
                            count.incrementAndGet();
                        } catch (RuntimeException e) {
                            failures.add(e);
                        }
                    }
                });
            }
        }

        /** Waits until every worker has had {@code more} successes more than now. */
        void awaitEachWorkerSucceeded(int more, String when) {
            long[] targets = new long[successes.length];
            for (int i = 0; i < successes.length; i++) {
                targets[i] = successes[i].get() + more;
            }
            Await.condition("each worker to succeed " + more + " times " + when, Duration.ofSeconds(30),
                    Duration.ofMillis(20), () -> {
                        for (int i = 0; i < successes.length; i++) {
                            if (successes[i].get() < targets[i]) {
                                return false;
                            }
                        }
                        return true;
                    });
        }

        Duration elapsed() {
            return Duration.ofNanos(System.nanoTime() - startedAt);
        }

        List<Throwable> failures() {
            return failures;
        }

        void stop() throws InterruptedException {
            running = false;
            workers.shutdown();
            assertThat(workers.awaitTermination(30, TimeUnit.SECONDS)).as("load workers stopped").isTrue();
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            workers.shutdownNow();
        }
    }

    @Test
    void anExecPluginMayAnswerWithAClientCertificate() throws Exception {
        var credential = dev.operatorstarter.internal.Json.MAPPER.createObjectNode()
                .put("apiVersion", "client.authentication.k8s.io/v1").put("kind", "ExecCredential");
        credential.putObject("status").put("clientCertificateData", connection.clientCertificatePem())
                .put("clientKeyData", connection.clientKeyPem());
        Files.writeString(temp.resolve("credential.json"), credential.toString());
        script("get-cert.sh", "cat \"$STATE/credential.json\"\n");

        try (KubernetesClient client = execClient("./get-cert.sh")) {
            assertThat(whoAmI(client)).isEqualTo("operator-starter-admin");
        }
    }

    private static String whoAmI(KubernetesClient client) {
        JsonNode review = client.rest().post().groupVersion("authentication.k8s.io", "v1").resource("selfsubjectreviews")
                .body(Map.of("apiVersion", "authentication.k8s.io/v1", "kind", "SelfSubjectReview"))
                .execute(JsonNode.class);
        return review.path("status").path("userInfo").path("username").asString();
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.operatorstarter.autoconfigure.ApiServerUnreachableException;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.rbac.AccessRule;
import dev.operatorstarter.rbac.AccessRules;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A check begun early ({@link PermissionCheck#begin()}) whose deadline passes while the context
 * still starts: what {@link PermissionCheck#run()} does then. The server is in-process because a
 * real one does not stop answering on demand: it holds requests unanswered, answers them, or
 * refuses the credentials.
 */
@Timeout(60)
class PermissionCheckTest {

    private enum Mode { SILENT, ANSWERING, REFUSING }

    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger received = new AtomicInteger();
    private volatile Mode mode = Mode.SILENT;
    private HttpServer server;
    private ExecutorService handlers;
    private KubernetesClient client;

    @BeforeEach
    void startServer(@TempDir Path folder) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        handlers = Executors.newCachedThreadPool();
        server.setExecutor(handlers);
        server.createContext("/", this::handle);
        server.start();
        Path kubeconfig = Files.writeString(folder.resolve("kubeconfig"), "clusters: [{name: c, cluster: {server: "
                + "\"http://127.0.0.1:" + server.getAddress().getPort() + "\"}}]\n"
                + "contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\n"
                + "users: [{name: u, user: {token: a-token}}]\n");
        client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
    }

    @AfterEach
    void stopServer() {
        client.close();
        server.stop(0);
        handlers.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        received.incrementAndGet();
        exchange.getRequestBody().readAllBytes();
        switch (mode) {
            case SILENT -> {
                return; // held: the client's deadline ends it
            }
            case REFUSING -> respond(exchange, 401, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                    + "\"reason\":\"Unauthorized\",\"code\":401}");
            case ANSWERING -> {
                boolean identity = exchange.getRequestURI().getPath().endsWith("/selfsubjectreviews");
                respond(exchange, 201, identity
                        ? "{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"SelfSubjectReview\","
                                + "\"status\":{\"userInfo\":{\"username\":\"tester\"}}}"
                        : "{\"apiVersion\":\"authorization.k8s.io/v1\",\"kind\":\"SelfSubjectAccessReview\","
                                + "\"status\":{\"allowed\":true}}");
                answered.incrementAndGet();
            }
        }
    }

    private static void respond(HttpExchange exchange, int code, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(code, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private PermissionCheck check(Duration timeout) {
        AccessRule rule = new AccessRule("", "configmaps", List.of(), List.of("get", "list", "watch"), false,
                List.of("a test"));
        return new PermissionCheck(client, Map.of("default", AccessRules.of(List.of(rule))), timeout);
    }

    /** Waits until the early check has ended (here: out of time), as when the servers' start outlasts it. */
    private static void awaitEarlyEnd(PermissionCheck check) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            CompletableFuture<Void> begun = check.begun();
            return begun != null && begun.isDone();
        });
    }

    @Test
    void anEarlyCheckOutOfTimeBeforeTheWaitAsksAgainAndPasses() {
        PermissionCheck check = check(Duration.ofSeconds(1));
        check.begin();
        awaitEarlyEnd(check);
        assertThat(check.begun()).isCompletedExceptionally();

        mode = Mode.ANSWERING;
        check.run();

        assertThat(answered).hasValueGreaterThanOrEqualTo(4); // the identity and three verbs, asked again
    }

    @Test
    void aServerThatNeverAnswersStillFailsTheWait() {
        PermissionCheck check = check(Duration.ofMillis(500));
        check.begin();

        assertThatThrownBy(check::run).isInstanceOf(ApiServerUnreachableException.class)
                .hasMessageContaining("127.0.0.1");
    }

    @Test
    void refusedCredentialsAreNotAskedAgain() {
        mode = Mode.REFUSING;
        PermissionCheck check = check(Duration.ofSeconds(5));
        check.begin();
        awaitEarlyEnd(check);
        int asked = received.get();

        assertThatThrownBy(check::run).isInstanceOfSatisfying(ApiServerUnreachableException.class,
                failure -> assertThat(failure.unauthenticated()).isTrue());
        assertThat(received).hasValue(asked);
    }
}

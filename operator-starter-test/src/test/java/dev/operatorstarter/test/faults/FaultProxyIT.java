package dev.operatorstarter.test.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.ServiceAccounts;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** Each fault of the proxy in front of the real API server, seen by a plain JDK HTTP client. */
@KubernetesTest
class FaultProxyIT {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SELF_SUBJECT_REVIEWS = "/apis/authentication.k8s.io/v1/selfsubjectreviews";

    @Test
    void theServerSeesTheAdminThroughTheProxyAndAServiceAccountWithItsToken(ClusterConnection cluster,
            TestNamespace namespace, @TempDir Path folder) throws Exception {
        ClusterConnection probe = ServiceAccounts.connectAs(cluster, namespace.name(), "probe",
                ServiceAccounts.MINIMUM_VALIDITY, folder.resolve("probe.kubeconfig"));
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            String direct = username(cluster);
            String asAdmin = username(proxy.connection());
            String asProbe = username(proxy.connectionWithToken(probe.bearerToken()));

            assertThat(asAdmin).isEqualTo(direct);
            assertThat(asProbe).isEqualTo("system:serviceaccount:" + namespace.name() + ":probe");
        }
    }

    @Test
    void aWatchIsStreamedThroughTheProxyAsTheServerSendsEvents(ClusterConnection cluster, TestNamespace namespace)
            throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            BufferedReader events = watch(proxy, namespace);

            createConfigMap(cluster, namespace, "after-the-watch-started");

            JsonNode event = KubernetesApi.json().readTree(events.readLine());
            assertThat(event.path("type").asString()).isEqualTo("ADDED");
            assertThat(event.path("object").path("metadata").path("name").asString()).isEqualTo("after-the-watch-started");
        }
    }

    @Test
    void latencyDelaysTheListsItMatches(ClusterConnection cluster, TestNamespace namespace) throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            Injection slow = proxy.inject(configMaps(namespace).excludingWatches(), Fault.latency(Duration.ofMillis(300)));

            long started = System.nanoTime();
            HttpResponse<String> list = send(proxy, selected(namespace));

            assertThat(list.statusCode()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
            assertThat(slow.matched()).isEqualTo(1);
        }
    }

    @Test
    void aHeldListIsAnsweredOnlyOnceReleasedAndOtherwiseEndsWithTheClientsTimeout(ClusterConnection cluster,
            TestNamespace namespace) throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            Injection hang = proxy.inject(configMaps(namespace), Fault.hang());

            // a timeout long enough for the request to reach the proxy on a loaded machine, so that it is
            // held when the client gives up
            CompletableFuture<HttpResponse<String>> timedOut = client(proxy.connection()).sendAsync(request(proxy,
                    selected(namespace)).timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());
            Eventually.await("the first list to be held", WAIT, () -> hang.held() == 1);
            assertThatThrownBy(() -> timedOut.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(HttpTimeoutException.class);
            CompletableFuture<HttpResponse<String>> held = client(proxy.connection())
                    .sendAsync(request(proxy, selected(namespace)).build(), HttpResponse.BodyHandlers.ofString());
            Eventually.await("the second list to be held", WAIT, () -> hang.held() == 2);
            hang.remove();

            assertThat(held.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aStormOf429WithRetryAfterPrecedesTheServersAnswerAndTheListsAreCounted(ClusterConnection cluster,
            TestNamespace namespace) throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            Injection lists = proxy.inject(configMaps(namespace).method("GET").excludingWatches(), Fault.none());
            Injection storm = proxy.inject(configMaps(namespace), Fault.tooManyRequests(Duration.ofSeconds(1)), 2);

            HttpResponse<String> first = send(proxy, selected(namespace));
            HttpResponse<String> second = send(proxy, selected(namespace));
            HttpResponse<String> third = send(proxy, selected(namespace));

            assertThat(first.statusCode()).isEqualTo(429);
            assertThat(first.headers().firstValue("Retry-After")).hasValue("1");
            assertThat(KubernetesApi.json().readTree(first.body()).path("reason").asString()).isEqualTo("TooManyRequests");
            assertThat(second.statusCode()).isEqualTo(429);
            assertThat(third.statusCode()).isEqualTo(200);
            assertThat(KubernetesApi.json().readTree(third.body()).path("kind").asString()).isEqualTo("ConfigMapList");
            assertThat(storm.matched()).isEqualTo(2);
            assertThat(lists.matched()).isEqualTo(3);
        }
    }

    @Test
    void aWatchCutAfterTwoEventsDeliversThemThenFails(ClusterConnection cluster, TestNamespace namespace)
            throws Exception {
        for (String name : new String[] {"one", "two", "three"}) {
            createConfigMap(cluster, namespace, name);
        }
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            proxy.inject(configMaps(namespace).watchesOnly(), Fault.cutAfterEvents(2));

            BufferedReader events = watch(proxy, namespace); // without resourceVersion: ADDED for each one that exists

            assertThat(KubernetesApi.json().readTree(events.readLine()).path("type").asString()).isEqualTo("ADDED");
            assertThat(KubernetesApi.json().readTree(events.readLine()).path("type").asString()).isEqualTo("ADDED");
            assertThatThrownBy(events::readLine).isInstanceOf(IOException.class);
        }
    }

    @Test
    void truncatedAndMalformedBodiesAreCompleteResponsesThatAreNotJson(ClusterConnection cluster,
            TestNamespace namespace) throws Exception {
        createConfigMap(cluster, namespace, "listed");
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            proxy.inject(configMaps(namespace).excludingWatches(), Fault.truncatedBody(), 1);
            proxy.inject(configMaps(namespace).excludingWatches(), Fault.malformedBody(), 1);
            proxy.inject(configMaps(namespace).watchesOnly(), Fault.truncatedAfterEvents(0), 1);

            HttpResponse<String> truncated = send(proxy, selected(namespace));
            HttpResponse<String> malformed = send(proxy, selected(namespace));
            HttpResponse<String> truncatedWatch = send(proxy, watched(namespace));
            HttpResponse<String> whole = send(proxy, selected(namespace));

            assertThat(truncated.statusCode()).isEqualTo(200);
            assertThat(truncated.body()).startsWith("{\"kind\":\"ConfigMapList\"").hasSizeLessThan(whole.body().length());
            assertThatThrownBy(() -> KubernetesApi.json().readTree(truncated.body())).isInstanceOf(JacksonException.class);
            assertThat(malformed.body()).isEqualTo(Fault.Malform.BODY);
            assertThatThrownBy(() -> KubernetesApi.json().readTree(malformed.body())).isInstanceOf(JacksonException.class);
            assertThat(truncatedWatch.body()).startsWith("{\"type\":\"ADDED\"").doesNotContain("\n");
            assertThat(KubernetesApi.json().readTree(whole.body()).path("items")).hasSize(1);
        }
    }

    @Test
    void halfOpenLeavesNewConnectionsUnansweredUntilSwitchedOff(ClusterConnection cluster, TestNamespace namespace)
            throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            proxy.halfOpen(true);

            assertThatThrownBy(() -> client(proxy.connection()).send(request(proxy, selected(namespace))
                    .timeout(Duration.ofMillis(300)).build(), HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
            // the proxy's accept may trail the client's connect on a loaded machine
            Eventually.await("the connection to be accepted", WAIT, () -> proxy.openConnections() == 1);
            assertThat(proxy.openConnections()).as("accepted, never closed").isEqualTo(1);
            proxy.halfOpen(false);
            assertThat(send(proxy, selected(namespace)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void dropAllEndsAnOpenWatchAndRefusesConnectionsUntilSwitchedOff(ClusterConnection cluster,
            TestNamespace namespace) throws Exception {
        try (FaultProxy proxy = FaultProxy.start(cluster)) {
            BufferedReader events = watch(proxy, namespace);

            proxy.dropAll(true);

            assertThatThrownBy(events::readLine).isInstanceOf(IOException.class);
            assertThatThrownBy(() -> send(proxy, selected(namespace))).isInstanceOf(IOException.class);
            proxy.dropAll(false);
            assertThat(send(proxy, selected(namespace)).statusCode()).isEqualTo(200);
        }
    }

    private static String username(ClusterConnection through) throws Exception {
        ObjectNode review = KubernetesApi.object().put("apiVersion", "authentication.k8s.io/v1")
                .put("kind", "SelfSubjectReview");
        HttpRequest.Builder request = HttpRequest.newBuilder(through.server().resolve(SELF_SUBJECT_REVIEWS))
                .timeout(WAIT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(review.toString()));
        if (through.bearerToken() != null) {
            request.header("Authorization", "Bearer " + through.bearerToken());
        }
        HttpResponse<String> response = client(through).send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("SelfSubjectReview through %s", through).isEqualTo(201);
        return KubernetesApi.json().readTree(response.body()).path("status").path("userInfo").path("username").asString();
    }

    private static BufferedReader watch(FaultProxy proxy, TestNamespace namespace) throws Exception {
        HttpResponse<InputStream> response = client(proxy.connection()).send(
                request(proxy, watched(namespace)).timeout(WAIT).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static void createConfigMap(ClusterConnection cluster, TestNamespace namespace, String name) {
        ObjectNode configMap = KubernetesApi.object().put("apiVersion", "v1").put("kind", "ConfigMap");
        configMap.putObject("metadata").put("name", name).putObject("labels").put("fault-proxy-it", "true");
        KubernetesApi.of(cluster.server(), cluster.sslContext(), cluster.bearerToken())
                .post(listPath(namespace), configMap).orThrow("creating config map " + name);
    }

    private static RequestMatcher configMaps(TestNamespace namespace) {
        return RequestMatcher.pathPrefix(listPath(namespace));
    }

    /** The config maps a test made, not the {@code kube-root-ca.crt} that every namespace has. */
    private static String selected(TestNamespace namespace) {
        return listPath(namespace) + "?labelSelector=fault-proxy-it";
    }

    private static String watched(TestNamespace namespace) {
        return selected(namespace) + "&watch=true";
    }

    private static String listPath(TestNamespace namespace) {
        return "/api/v1/namespaces/" + namespace.name() + "/configmaps";
    }

    private static HttpResponse<String> send(FaultProxy proxy, String path) throws Exception {
        return client(proxy.connection()).send(request(proxy, path).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(FaultProxy proxy, String path) {
        return HttpRequest.newBuilder(proxy.uri().resolve(path)).timeout(WAIT);
    }

    private static HttpClient client(ClusterConnection connection) {
        return HttpClient.newBuilder().sslContext(connection.sslContext()).connectTimeout(WAIT).build();
    }
}

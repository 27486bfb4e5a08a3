package dev.operatorstarter.client.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DiscoveryClient#lookup} asks once per group version and tells "the server says it does not serve this" from "the server
 * could not be asked", against a server that plays a 503 and a hang on demand (a real one will
 * not). That a real server's answer for a missing CRD is {@code NotServed} is shown by the
 * starter's {@code OperatorLifecycleIT}.
 */
class ResourceLookupTest {

    private static final Duration DEADLINE = Duration.ofSeconds(1);

    private HttpServer server;
    private ExecutorService threads;
    private final CountDownLatch release = new CountDownLatch(1);
    private final List<String> requested = new CopyOnWriteArrayList<>();
    private RestClient rest;

    @BeforeEach
    void start() throws IOException {
        threads = Executors.newCachedThreadPool();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(threads);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            requested.add(path);
            int code = 200;
            String body;
            switch (path) {
                case "/apis/demo.example.com/v1" -> body = "{\"kind\":\"APIResourceList\",\"groupVersion\":"
                        + "\"demo.example.com/v1\",\"resources\":["
                        + "{\"name\":\"greetings\",\"kind\":\"Greeting\",\"namespaced\":true,\"verbs\":[\"list\",\"watch\"]},"
                        + "{\"name\":\"greetings/status\",\"kind\":\"Greeting\",\"namespaced\":true,\"verbs\":[\"get\"]}]}";
                case "/apis/demo.example.com" -> body = "{\"kind\":\"APIGroup\",\"name\":\"demo.example.com\","
                        + "\"versions\":[{\"groupVersion\":\"demo.example.com/v1\",\"version\":\"v1\"},"
                        + "{\"groupVersion\":\"demo.example.com/v1alpha1\",\"version\":\"v1alpha1\"}]}";
                case "/apis/demo.example.com/v1alpha1" -> body = "{\"kind\":\"APIResourceList\",\"groupVersion\":"
                        + "\"demo.example.com/v1alpha1\",\"resources\":["
                        + "{\"name\":\"sprockets\",\"kind\":\"Sprocket\",\"namespaced\":true,\"verbs\":[\"list\"]}]}";
                case "/apis/down.example.com/v1" -> {
                    code = 503;
                    body = "{\"kind\":\"Status\",\"code\":503,\"reason\":\"ServiceUnavailable\"}";
                }
                case "/apis/slow.example.com/v1" -> {
                    try {
                        release.await(30, TimeUnit.SECONDS); // longer than the deadline: the client gives up first
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    body = "{\"kind\":\"APIResourceList\",\"resources\":[]}";
                }
                default -> {
                    code = 404;
                    body = "{\"kind\":\"Status\",\"code\":404,\"reason\":\"NotFound\"}";
                }
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            try (InputStream in = exchange.getRequestBody(); OutputStream out = exchange.getResponseBody()) {
                in.readAllBytes();
                exchange.sendResponseHeaders(code, bytes.length);
                out.write(bytes);
            } catch (IOException e) {
                // the client gave up on the slow answer
            }
        });
        server.start();
        URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        // retries on: lookup's deadline must make it one attempt anyway
        rest = RestClient.create(new ClientConfig(uri, TlsSettings.defaults(), Credentials.none(), null, "default",
                "test"), ClientOptions.builder().maxRetries(10).build());
    }

    @AfterEach
    void stop() {
        release.countDown();
        rest.close();
        server.stop(0);
        threads.shutdownNow();
    }

    private ResourceLookup lookup(String group, String resource) {
        return DiscoveryClient.create(rest).lookup(List.of(new GroupVersionResource(group, "v1", resource)), DEADLINE)
                .get(0);
    }

    @Test
    void resourcesOfOneGroupVersionCostOneRequestAndAreAnsweredInTheirOrder() {
        List<ResourceLookup> answers = DiscoveryClient.create(rest).lookup(List.of(
                new GroupVersionResource("demo.example.com", "v1", "greetings"),
                new GroupVersionResource("down.example.com", "v1", "things"),
                new GroupVersionResource("demo.example.com", "v1", "farewells"),
                new GroupVersionResource("down.example.com", "v1", "others")), DEADLINE);

        assertThat(answers).extracting(answer -> answer.getClass().getSimpleName())
                .containsExactly("Served", "Unanswered", "NotServed", "Unanswered");
        assertThat(answers).extracting(answer -> answer.resource().resource())
                .containsExactly("greetings", "things", "farewells", "others");
        // then, for the one not served, the group's other versions: is its CRD there in another version?
        assertThat(requested).containsExactly("/apis/demo.example.com/v1", "/apis/down.example.com/v1",
                "/apis/demo.example.com", "/apis/demo.example.com/v1alpha1");
    }

    @Test
    void aServedResourceIsFoundWithItsKindScopeAndSubresources() {
        assertThat(lookup("demo.example.com", "greetings")).isInstanceOfSatisfying(ResourceLookup.Served.class,
                served -> {
                    assertThat(served.served().kind()).isEqualTo("Greeting");
                    assertThat(served.served().namespaced()).isTrue();
                    assertThat(served.served().subresources()).containsExactly("status");
                });
    }

    @Test
    void aGroupVersionTheServerDoesNotKnowIsNotServedAndSaysWhichCrdIsMissing() {
        ResourceLookup answer = lookup("missing.example.com", "gadgets");

        assertThat(answer).isInstanceOfSatisfying(ResourceLookup.NotServed.class, notServed -> {
            assertThat(notServed.groupVersionServed()).isFalse();
            assertThat(notServed.describe("https://api:6443")).isEqualTo("the CRD for gadgets.missing.example.com is "
                    + "not installed (no resource gadgets in missing.example.com/v1 on the API server at https://api:6443)");
        });
    }

    @Test
    void aResourceMissingFromAServedGroupVersionIsNotServed() {
        assertThat(lookup("demo.example.com", "farewells")).isInstanceOfSatisfying(ResourceLookup.NotServed.class,
                notServed -> {
                    assertThat(notServed.groupVersionServed()).isTrue();
                    assertThat(notServed.servedInVersions()).isEmpty();
                });
    }

    @Test
    void aResourceServedOnlyInAnotherVersionOfItsGroupIsNotServedAndSaysWhichVersionsServeIt() {
        assertThat(lookup("demo.example.com", "sprockets")).isInstanceOfSatisfying(ResourceLookup.NotServed.class,
                notServed -> {
                    assertThat(notServed.servedInVersions()).containsExactly("v1alpha1");
                    assertThat(notServed.describe("https://api:6443")).isEqualTo("the CRD for sprockets.demo.example.com "
                            + "does not serve version v1 (it serves v1alpha1; no resource sprockets in demo.example.com/v1 "
                            + "on the API server at https://api:6443)");
                });
    }

    @Test
    void aServerErrorIsUnansweredNotNotServed() {
        assertThat(lookup("down.example.com", "things")).isInstanceOfSatisfying(ResourceLookup.Unanswered.class,
                unanswered -> assertThat(unanswered.cause()).hasMessageContaining("503"));
    }

    @Test
    void aServerThatDoesNotAnswerWithinTheDeadlineIsUnansweredNotNotServed() {
        assertThat(lookup("slow.example.com", "things")).isInstanceOfSatisfying(ResourceLookup.Unanswered.class,
                unanswered -> assertThat(unanswered.cause()).hasMessageContaining("deadline"));
    }

    @Test
    void theCoreGroupHasNoCrdsSoItsMessageSaysOnlyWhatTheServerLacks() {
        assertThat(new ResourceLookup.NotServed(new GroupVersionResource("", "v1", "gadgets"), true, List.of())
                .describe("https://api:6443")).isEqualTo("the API server at https://api:6443 serves no resource gadgets in v1");
    }
}

package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.FaultServer.Reply;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import tools.jackson.databind.JavaType;

/** Faults a real API server will not produce on demand, played by an in-process server. */
class TransportFaultsTest {

    private static final String CONFIG_MAP = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"x\"},"
            + "\"data\":{\"k\":\"v\"}}";
    private static final String TOO_MANY = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
            + "\"message\":\"too many requests, please try again later\",\"reason\":\"TooManyRequests\",\"code\":429}";
    private static final JavaType CONFIG_MAP_TYPE = dev.operatorstarter.internal.Json.MAPPER
            .constructType(ConfigMap.class);

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

    private RestClient connect(FaultServer fault, ClientOptions options) {
        return connect(fault, options, Credentials.none());
    }

    private RestClient connect(FaultServer fault, ClientOptions options, Credentials credentials) {
        server = fault.start();
        rest = RestClient.create(new ClientConfig(fault.uri(), TlsSettings.defaults(), credentials, null, "default",
                "test"), options);
        return rest;
    }

    private static ClientOptions fastRetries(int maxRetries) {
        return ClientOptions.builder().maxRetries(maxRetries).retryBackoff(Duration.ofMillis(10))
                .maxRetryDelay(Duration.ofMillis(50)).requestTimeout(Duration.ofSeconds(10)).build();
    }

    private static Request getConfigMap(RestClient rest) {
        return rest.get().groupVersion("", "v1").namespace("default").resource("configmaps").name("x");
    }

    @Test
    void connectionsTheServerClosedWhileIdleAreNeverReused() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.json(200, CONFIG_MAP))
                .closingIdleConnectionsAfter(Duration.ofSeconds(2)), fastRetries(0).toBuilder()
                .idleConnectionTimeout(Duration.ofMillis(200)).build());
        // Several pooled connections at once, as informers and workers make them.
        java.util.concurrent.ExecutorService parallel = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            java.util.List<java.util.concurrent.Future<ConfigMap>> reads = new java.util.ArrayList<>();
            for (int i = 0; i < 64; i++) {
                reads.add(parallel.submit(() -> getConfigMap(client).execute(ConfigMap.class)));
            }
            for (java.util.concurrent.Future<ConfigMap> read : reads) {
                read.get();
            }
        } finally {
            parallel.shutdownNow();
        }
        // The server's idle timeout is ten times the client's: a loaded machine delays the client's
        // release of a connection (when its idle time starts) behind the server's last byte, and at
        // 400 ms a reused connection was once closed under a request of the burst.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                .until(() -> server.openConnections() == 0); // the server closed them all while idle

        assertThat(getConfigMap(client).execute(ConfigMap.class).getData()).containsEntry("k", "v");
        assertThat(getConfigMap(client).execute(ConfigMap.class).getData()).containsEntry("k", "v");
    }

    @Test
    void tooManyRequestsWithRetryAfterIsRetriedUntilItSucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RestClient client = connect(new FaultServer(request -> calls.incrementAndGet() <= 2
                ? Reply.json(429, TOO_MANY, "Retry-After: 1") : Reply.json(200, CONFIG_MAP)), fastRetries(5));

        ConfigMap result = getConfigMap(client).execute(ConfigMap.class);

        assertThat(result.getData()).containsEntry("k", "v");
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void tooManyRequestsIsSurfacedWithItsDelayOnceTheRetriesAreSpent() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.json(429, TOO_MANY, "Retry-After: 7")),
                fastRetries(2));

        assertThatThrownBy(() -> getConfigMap(client).execute(ConfigMap.class))
                .isInstanceOf(ApiException.TooManyRequests.class)
                .satisfies(e -> assertThat(((ApiException) e).retryAfter()).contains(Duration.ofSeconds(7)))
                .hasMessageContaining("GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x");
        assertThat(server.requests()).hasSize(3);
    }

    @Test
    void serviceUnavailableIsRetriedForAGetButNotForAPost() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        RestClient client = connect(new FaultServer(request -> {
            if (request.method().equals("GET") && gets.incrementAndGet() > 1) {
                return Reply.json(200, CONFIG_MAP);
            }
            return Reply.status(503, "text/plain", "upstream connect error", "Retry-After: 1");
        }), fastRetries(3));

        ConfigMap read = getConfigMap(client).execute(ConfigMap.class);
        assertThatThrownBy(() -> client.post().groupVersion("", "v1").namespace("default").resource("configmaps")
                .body(CONFIG_MAP).execute(ConfigMap.class))
                .isInstanceOf(ApiException.ServiceUnavailable.class)
                .hasMessageContaining("503").hasMessageContaining("upstream connect error");

        assertThat(read.getMetadata().getName()).isEqualTo("x");
        assertThat(server.requests()).extracting(FaultServer.Received::method).containsExactly("GET", "GET", "POST");
    }

    @Test
    void aMalformedJsonBodyGivesAClearErrorNamingTheRequest() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.json(200, "{\"kind\":\"ConfigMap\",\"data\":{")),
                fastRetries(0));

        assertThatThrownBy(() -> getConfigMap(client).execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x")
                .hasMessageContaining("not a valid ConfigMap in JSON");
    }

    @Test
    void aWatchCutInTheMiddleOfAnEventFailsAndReleasesTheConnection() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.cutStream(
                "{\"type\":\"ADDED\",\"object\":" + CONFIG_MAP + "}\n", "{\"type\":\"MODIFIED\",\"obj")), fastRetries(0));
        List<WatchEvent<ConfigMap>> received = new CopyOnWriteArrayList<>();

        assertThatThrownBy(() -> getConfigMap(client).<ConfigMap>watch(CONFIG_MAP_TYPE).doOnNext(received::add)
                .blockLast(Duration.ofSeconds(20)))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET " + server.uri());

        // blockLast returned: the flux ended with the error instead of waiting on a dead stream
        assertThat(received).hasSize(1).first().isInstanceOf(WatchEvent.Added.class);
    }

    @Test
    void aMalformedWatchEventFailsTheStreamWithTheRequestNamedAndFreesNothingTwice() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.stream(
                "{\"type\":\"ADDED\",\"object\":" + CONFIG_MAP + "}\n", "{\"type\": ADDED}\n")), fastRetries(0));
        ch.qos.logback.classic.Logger netty = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("reactor.netty");
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged =
                new ch.qos.logback.core.read.ListAppender<>();
        logged.start();
        netty.addAppender(logged);
        try {
            assertThatThrownBy(() -> getConfigMap(client).<ConfigMap>watch(CONFIG_MAP_TYPE)
                    .blockLast(Duration.ofSeconds(20)))
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("not valid JSON");
            rest.close();
            rest = null;
        } finally {
            netty.detachAppender(logged);
        }

        // a buffer released twice shows up as Netty's IllegalReferenceCountException in its log
        assertThat(logged.list).extracting(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
                .noneMatch(message -> message.contains("IllegalReferenceCount"));
    }

    @Test
    void aWatchErrorEventCarriesTheStatus() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.stream("{\"type\":\"ERROR\",\"object\":"
                + "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,"
                + "\"message\":\"too old resource version: 1 (500)\"}}\n")), fastRetries(0));

        List<WatchEvent<ConfigMap>> events = getConfigMap(client).<ConfigMap>watch(CONFIG_MAP_TYPE).collectList()
                .block(Duration.ofSeconds(20));

        assertThat(events).hasSize(1);
        ApiException error = ((WatchEvent.Error<ConfigMap>) events.get(0)).toException("watch");
        assertThat(error).isInstanceOf(ApiException.Gone.class);
        assertThat(ApiErrors.isResourceExpired(error)).isTrue();
    }

    @Test
    void aRotatedTokenFileIsReadAgainAfterA401AndTheRequestRetriedOnce(@TempDir Path temp) throws Exception {
        Path token = Files.writeString(temp.resolve("token"), "old-token\n");
        RestClient client = connect(new FaultServer(request -> "Bearer new-token".equals(request.header("Authorization"))
                ? Reply.json(200, CONFIG_MAP) : Reply.json(401, "{\"kind\":\"Status\",\"code\":401,"
                        + "\"reason\":\"Unauthorized\",\"message\":\"Unauthorized\"}")),
                fastRetries(0), new Credentials.TokenFile(token));

        assertThatThrownBy(() -> getConfigMap(client).execute(ConfigMap.class))
                .isInstanceOf(ApiException.Unauthorized.class);
        Files.writeString(token, "new-token\n");
        ConfigMap read = getConfigMap(client).execute(ConfigMap.class);

        assertThat(read.getMetadata().getName()).isEqualTo("x");
        assertThat(server.requests()).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer old-token", "Bearer old-token", "Bearer new-token");
    }

    @Test
    void interceptorsAndMetricsSeeEveryAttempt() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        List<String> intercepted = new CopyOnWriteArrayList<>();
        List<String> codes = new CopyOnWriteArrayList<>();
        ClientOptions options = fastRetries(3).toBuilder()
                .interceptor(ExchangeFilterFunction.ofRequestProcessor(request -> {
                    intercepted.add(request.method() + " " + request.headers().getFirst("User-Agent"));
                    return reactor.core.publisher.Mono.just(request);
                }))
                .metrics((method, host, code, latency) -> codes.add(method + " " + code + " " + host))
                .build();
        RestClient client = connect(new FaultServer(request -> calls.incrementAndGet() == 1
                ? Reply.json(429, TOO_MANY, "Retry-After: 1") : Reply.json(200, CONFIG_MAP)), options);

        getConfigMap(client).execute(ConfigMap.class);

        String host = "127.0.0.1:" + server.uri().getPort();
        assertThat(codes).containsExactly("GET 429 " + host, "GET 200 " + host);
        assertThat(intercepted).hasSize(2).allSatisfy(line -> assertThat(line).startsWith("GET operator-starter/"));
    }

    @Test
    void anErrorBodyThatIsNotAStatusStillGivesATypedError() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.status(404, "text/html",
                "<html>no such thing</html>")), fastRetries(0));

        assertThatThrownBy(() -> getConfigMap(client).execute(ConfigMap.class))
                .isInstanceOf(ApiException.NotFound.class)
                .hasMessageContaining("404 NotFound").hasMessageContaining("<html>no such thing</html>");
    }

    @Test
    void aRequestWithADeadlineIsOneAttemptThatEndsAtItsDeadlineNotAfterTheRequestTimeoutAndRetries() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.hang()), fastRetries(5).toBuilder()
                .requestTimeout(Duration.ofSeconds(60)).build());

        assertThatThrownBy(() -> getConfigMap(client).deadline(Duration.ofMillis(300)).execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x")
                .hasMessageContaining("timed out after its deadline of 300 ms");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aRequestWithADeadlineIsNotRetriedOnTooManyRequestsOrUnavailable() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RestClient client = connect(new FaultServer(request -> calls.incrementAndGet() == 1
                ? Reply.json(429, TOO_MANY, "Retry-After: 1") : Reply.json(503, "{}")), fastRetries(5));

        assertThatThrownBy(() -> getConfigMap(client).deadline(Duration.ofSeconds(5)).execute(ConfigMap.class))
                .isInstanceOf(ApiException.TooManyRequests.class);
        assertThatThrownBy(() -> getConfigMap(client).deadline(Duration.ofSeconds(5)).execute(ConfigMap.class))
                .isInstanceOf(ApiException.class).satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(503));
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void aRequestWithADeadlineDoesNotQueueBehindTheRateLimiter() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.json(200, CONFIG_MAP)), fastRetries(0)
                .toBuilder().rateLimit(new RateLimit(0.001, 1)).build());
        getConfigMap(client).execute(ConfigMap.class); // spends the only token for the next 1,000 s

        ConfigMap read = getConfigMap(client).deadline(Duration.ofSeconds(5)).execute(ConfigMap.class);

        assertThat(read.getData()).containsEntry("k", "v");
    }

    @Test
    void anAttemptThatGetsNoAnswerTimesOutWithTheRequestNamed() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.hang()), ClientOptions.builder().maxRetries(0)
                .requestTimeout(Duration.ofMillis(300)).build());

        assertThatThrownBy(() -> getConfigMap(client).execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x")
                .hasMessageContaining("timed out after 300 ms");
    }

    @Test
    void aSlowWatchSubscriberStopsTheReadsAndCancellingClosesTheConnection() throws Exception {
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        RestClient client = connect(new FaultServer(request -> Reply.endless("{\"type\":\"ADDED\",\"object\":"
                + CONFIG_MAP + "}\n", written)), fastRetries(0));
        List<WatchEvent<ConfigMap>> received = new CopyOnWriteArrayList<>();
        reactor.core.publisher.BaseSubscriber<WatchEvent<ConfigMap>> slow = new reactor.core.publisher.BaseSubscriber<>() {
            @Override
            protected void hookOnSubscribe(org.reactivestreams.Subscription subscription) {
                request(1);
            }

            @Override
            protected void hookOnNext(WatchEvent<ConfigMap> event) {
                received.add(event); // and asks for nothing more
            }
        };
        getConfigMap(client).<ConfigMap>watch(CONFIG_MAP_TYPE).subscribe(slow);

        // The server keeps writing until the socket buffers are full; then its writes block,
        // because the client stopped reading. Without backpressure the count would grow without end.
        long[] last = {-1};
        dev.operatorstarter.test.internal.Await.condition("the server's writes to stall", Duration.ofSeconds(30),
                Duration.ofMillis(500), () -> {
                    long now = written.get();
                    boolean stalled = now > 0 && now == last[0];
                    last[0] = now;
                    return stalled;
                });
        long stalledAt = written.get();
        slow.cancel();

        assertThat(received).hasSize(1);
        assertThat(stalledAt).as("events written before the writes stalled").isLessThan(200_000);
        dev.operatorstarter.test.internal.Await.condition("the connection to be closed", Duration.ofSeconds(10),
                Duration.ofMillis(50), () -> server.openConnections() == 0);
    }

    @Test
    void theDelayTheServerAsksForIsWaitedBeforeTheRetry() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        RestClient client = connect(new FaultServer(request -> calls.incrementAndGet() == 1
                ? Reply.json(429, TOO_MANY, "Retry-After: 1") : Reply.json(200, CONFIG_MAP)),
                ClientOptions.builder().maxRetries(3).retryBackoff(Duration.ofMillis(10)).build());

        getConfigMap(client).execute(ConfigMap.class);

        List<FaultServer.Received> requests = server.requests();
        assertThat(requests).hasSize(2);
        assertThat(Duration.ofNanos(requests.get(1).nanoTime() - requests.get(0).nanoTime()))
                .as("the gap between the attempts honours Retry-After: 1").isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }

    @Test
    void writesAreNotRepeatedAfterA503() throws Exception {
        RestClient client = connect(new FaultServer(request -> Reply.status(503, "text/plain", "busy", "Retry-After: 1")),
                fastRetries(3));

        assertThatThrownBy(() -> client.put().groupVersion("", "v1").namespace("default")
                .resource("configmaps").name("x").body(CONFIG_MAP).execute(ConfigMap.class))
                .isInstanceOf(ApiException.ServiceUnavailable.class);
        assertThatThrownBy(() -> client.delete().groupVersion("", "v1").namespace("default").resource("configmaps")
                .name("x").execute(ConfigMap.class)).isInstanceOf(ApiException.ServiceUnavailable.class);

        assertThat(server.requests()).extracting(FaultServer.Received::method).containsExactly("PUT", "DELETE");
    }

    @Test
    void aTokenFileCaughtHalfWrittenKeepsTheTokenReadBefore(@TempDir Path temp) throws Exception {
        Path token = Files.writeString(temp.resolve("token"), "good-token\n");
        RestClient client = connect(new FaultServer(request -> "Bearer good-token".equals(request.header("Authorization"))
                ? Reply.json(200, CONFIG_MAP) : Reply.json(401, "{\"kind\":\"Status\",\"code\":401}")),
                fastRetries(0).toBuilder().tokenFileRefresh(Duration.ofMillis(1)).build(),
                new Credentials.TokenFile(token));
        getConfigMap(client).execute(ConfigMap.class);

        Files.writeString(token, ""); // truncated, not yet rewritten; the 1 ms refresh period has passed by the next call
        ConfigMap read = getConfigMap(client).execute(ConfigMap.class);

        assertThat(read.getMetadata().getName()).isEqualTo("x");
        assertThat(server.requests()).extracting(r -> r.header("Authorization")).containsOnly("Bearer good-token");
    }

    @Test
    void userInfoInTheServerUrlIsNeitherSentOnNorShownInRequestDescriptions() throws Exception {
        server = new FaultServer(request -> Reply.json(200, "{\"kind\":\"ConfigMap\",\"data\":{")).start();
        java.net.URI withUserInfo = java.net.URI.create("http://me:hunter2@127.0.0.1:" + server.uri().getPort());
        rest = RestClient.create(new ClientConfig(withUserInfo, TlsSettings.defaults(), Credentials.none(), null,
                "default", "test"), fastRetries(0));

        assertThat(getConfigMap(rest).uri()).hasToString(server.uri() + "/api/v1/namespaces/default/configmaps/x");
        assertThatThrownBy(() -> getConfigMap(rest).execute(ConfigMap.class))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET " + server.uri() + "/api/v1/namespaces/default/configmaps/x")
                .message().doesNotContain("hunter2");
        assertThat(server.requests()).hasSize(1);
    }
}

package dev.operatorstarter.test.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.internal.Tls;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The proxy's HTTP handling and every fault, against a scripted HTTPS server standing in for the
 * API server ({@code FaultProxyIT} repeats the essentials against the real one).
 */
class FaultProxyTest {

    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final String LIST = "{\"kind\":\"ConfigMapList\",\"items\":[{\"a\":1},{\"b\":2}]}\n";

    @TempDir
    Path folder;

    private final CountDownLatch secondEvent = new CountDownLatch(1);
    private final CountDownLatch upstreamClosed = new CountDownLatch(1);
    private ScriptedServer server;
    private FaultProxy proxy;

    @BeforeEach
    void start() throws IOException {
        server = new ScriptedServer(request -> switch (request.head().target().replaceAll("\\?.*", "")) {
            case "/list" -> ScriptedServer.json(200, LIST);
            case "/events" -> ScriptedServer.events("{\"n\":1}\n", "{\"n\":2}\n", "{\"n\":3}\n");
            case "/stream" -> (in, out) -> {
                ScriptedServer.chunkedHead(out);
                ScriptedServer.chunk(out, "{\"n\":1}\n");
                await(secondEvent);
                ScriptedServer.chunk(out, "{\"n\":2}\n");
                out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                return true;
            };
            case "/closes-after" -> (in, out) -> !ScriptedServer.json(200, "{}").write(in, out);
            case "/closes-instead" -> (in, out) -> false;
            case "/silent" -> (in, out) -> {
                ScriptedServer.chunkedHead(out);
                ScriptedServer.chunk(out, "{\"n\":1}\n");
                if (in.read() < 0) { // nothing more is sent: only the proxy closing its connection ends this
                    upstreamClosed.countDown();
                }
                return false;
            };
            case "/upgrade" -> (in, out) -> {
                out.write("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                String line = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine();
                out.write(("echo: " + line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                return false;
            };
            default -> ScriptedServer.json(200, new String(request.body(), StandardCharsets.UTF_8));
        }).start();
        proxy = FaultProxy.start(server.connection(folder.resolve("upstream.kubeconfig")),
                FaultProxyOptions.builder().folder(folder.resolve("proxy")).build());
    }

    @AfterEach
    void stop() throws IOException {
        secondEvent.countDown();
        proxy.close();
        server.close();
    }

    @Test
    void aRequestAndItsBodyAreForwardedAsTheAdminWithTheUpstreamsClientCertificate() throws Exception {
        HttpResponse<String> response = send(client(proxy.connection()), request("/echo")
                .POST(HttpRequest.BodyPublishers.ofString("{\"hello\":1}")));

        ScriptedServer.Received received = server.received().poll(5, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"hello\":1}");
        assertThat(received.method()).isEqualTo("POST");
        assertThat(received.clientCertificate()).isTrue();
        assertThat(received.header("Authorization")).isNull();
        assertThat(received.header("Host")).isEqualTo(server.connection(folder).server().getAuthority());
        assertThat(proxy.connection().kubeconfig()).exists();
    }

    @Test
    void aRequestHeaderFaultReplacesTheHeaderTheClientSentOnlyForTheMatchedRequests() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.requestHeader("Accept", "application/json"));

        send(client(proxy.connection()), request("/list").header("Accept", "application/json;as=Table;v=v1"));
        ScriptedServer.Received rewritten = server.received().poll(5, TimeUnit.SECONDS);
        send(client(proxy.connection()), request("/echo").header("Accept", "application/json;as=Table;v=v1"));
        ScriptedServer.Received untouched = server.received().poll(5, TimeUnit.SECONDS);

        assertThat(rewritten.header("Accept")).isEqualTo("application/json");
        assertThat(untouched.header("Accept")).isEqualTo("application/json;as=Table;v=v1");
        assertThatThrownBy(() -> Fault.requestHeader("Bad Name", "x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.requestHeader("X", "a\r\nInjected: 1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRequestWithItsOwnTokenIsForwardedWithThatTokenAndNoClientCertificate() throws Exception {
        ClusterConnection asToken = proxy.connectionWithToken("t0k3n");

        HttpResponse<String> response = send(client(asToken), request("/list").header("Authorization", "Bearer t0k3n"));

        ScriptedServer.Received received = server.received().poll(5, TimeUnit.SECONDS);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(received.clientCertificate()).isFalse();
        assertThat(received.header("Authorization")).isEqualTo("Bearer t0k3n");
        assertThat(asToken.clientCertificatePem()).isNull();
        assertThat(Files.readString(asToken.kubeconfig())).contains("t0k3n");
    }

    @Test
    void theAdminOfAnUpstreamThatAuthenticatesWithATokenIsForwardedWithThatToken() throws Exception {
        ClusterConnection certified = server.connection(folder.resolve("upstream.kubeconfig"));
        ClusterConnection byToken = new ClusterConnection(certified.server(), certified.certificateAuthorityPem(), null,
                null, "admin-token", certified.kubeconfig());
        AtomicInteger threads = new AtomicInteger();
        FaultProxyOptions options = FaultProxyOptions.builder().threadFactory(task -> {
            threads.incrementAndGet();
            Thread thread = new Thread(task);
            thread.setDaemon(true);
            return thread;
        }).build();

        try (FaultProxy tokenProxy = FaultProxy.start(byToken, options)) {
            send(client(tokenProxy.connection()), request(tokenProxy.uri(), "/list"));
        }

        ScriptedServer.Received received = server.received().poll(5, TimeUnit.SECONDS);
        assertThat(received.header("Authorization")).isEqualTo("Bearer admin-token");
        assertThat(received.clientCertificate()).isFalse();
        assertThat(threads.get()).as("the accept thread and the connection's, from the factory given").isEqualTo(2);
    }

    @Test
    void aRequestWithNeitherTheProxysCertificateNorATokenIsUnauthorizedAndNotForwarded() throws Exception {
        SSLContext trustOnly = Tls.sslContext(proxy.connection().certificateAuthorityPem(), null, null);

        HttpResponse<String> response = send(HttpClient.newBuilder().sslContext(trustOnly).build(), request("/list"));

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(json(response.body()).path("reason").asString()).isEqualTo("Unauthorized");
        assertThat(server.received()).isEmpty();
    }

    @Test
    void aChunkedStreamIsForwardedEventByEventAsTheServerWritesIt() throws Exception {
        HttpResponse<InputStream> response = client(proxy.connection())
                .send(request("/stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        BufferedReader events = reader(response);

        String first = events.readLine(); // the server holds the second event until this line has arrived
        secondEvent.countDown();

        assertThat(first).isEqualTo("{\"n\":1}");
        assertThat(events.readLine()).isEqualTo("{\"n\":2}");
        assertThat(events.readLine()).isNull();
    }

    @Test
    void aClientLeavingASilentStreamEndsTheUpstreamStreamAtOnce() throws Exception {
        try (SSLSocket socket = rawSocket()) {
            socket.getOutputStream().write("GET /silent?watch=true HTTP/1.1\r\nHost: proxy\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            BufferedReader events = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            while (!events.readLine().equals("{\"n\":1}")) {
                // the head and the chunk size line
            }
        }

        assertThat(upstreamClosed.await(5, TimeUnit.SECONDS)).as("the proxy closed the upstream stream").isTrue();
        Eventually.await("the connection to be gone", WAIT, () -> proxy.openConnections() == 0);
    }

    @Test
    void requestsOnOneClientConnectionShareOneUpstreamConnection() throws Exception {
        HttpClient client = client(proxy.connection());

        send(client, request("/list"));
        send(client, request("/events"));
        send(client, request("/list"));

        assertThat(server.connections()).isEqualTo(1);
        assertThat(proxy.openConnections()).isEqualTo(1);
    }

    @Test
    void aRequestOnAnUpstreamConnectionTheServerClosedWhileIdleIsSentAgainOnANewOne() throws Exception {
        HttpClient client = client(proxy.connection());
        send(client, request("/closes-after"));

        HttpResponse<String> next = send(client, request("/list"));

        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(next.body()).isEqualTo(LIST);
        assertThat(server.connections()).isEqualTo(2);
    }

    @Test
    void aPostTheServerReceivedOnAReusedConnectionIsNotSentAgainWhenNoAnswerCame() throws Exception {
        HttpClient client = client(proxy.connection());
        send(client, request("/list"));

        assertThatThrownBy(() -> send(client, request("/closes-instead").POST(HttpRequest.BodyPublishers.ofString("{}"))))
                .isInstanceOf(IOException.class);

        assertThat(server.received()).extracting(ScriptedServer.Received::target).containsExactly("/list", "/closes-instead");
    }

    @Test
    void latencyDelaysTheRequestsItMatchesOnly() throws Exception {
        Injection slow = proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.latency(Duration.ofMillis(300),
                Duration.ofMillis(100)));
        HttpClient client = client(proxy.connection());

        long started = System.nanoTime();
        send(client, request("/list"));
        Duration slowTook = Duration.ofNanos(System.nanoTime() - started);

        assertThat(slowTook).isGreaterThanOrEqualTo(Duration.ofMillis(400));
        assertThat(slow.matched()).isEqualTo(1);
        send(client, request("/events"));
        assertThat(slow.matched()).isEqualTo(1);
    }

    @Test
    void aHangHoldsRequestsWithoutAnAnswerUntilReleased() throws Exception {
        Injection hang = proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.hang());
        CompletableFuture<HttpResponse<String>> held = client(proxy.connection())
                .sendAsync(request("/list").build(), HttpResponse.BodyHandlers.ofString());

        Eventually.await("the request to be held", WAIT, () -> hang.held() == 1);
        assertThat(server.received()).isEmpty();
        assertThat(held).isNotDone();
        hang.release();

        assertThat(held.get(5, TimeUnit.SECONDS).body()).isEqualTo(LIST);
        assertThat(hang.held()).isZero();
        assertThat(hang.isActive()).as("later requests are held again").isTrue();
    }

    @Test
    void aHeldRequestEndsWithTheClientsOwnTimeout() throws Exception {
        Injection hang = proxy.inject(RequestMatcher.all(), Fault.hang());
        // long enough for the request to reach the proxy on a loaded machine (at 200 ms it once timed
        // out before the proxy had read it), so that what ends it is the timeout while it is held
        CompletableFuture<HttpResponse<String>> held = client(proxy.connection())
                .sendAsync(request("/list").timeout(Duration.ofSeconds(3)).build(), HttpResponse.BodyHandlers.ofString());

        Eventually.await("the request to be held", WAIT, () -> hang.held() == 1);
        assertThatThrownBy(() -> held.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(HttpTimeoutException.class);
        assertThat(hang.matched()).isEqualTo(1);
        assertThat(server.received()).as("never forwarded").isEmpty();
    }

    @Test
    void aStormAnswersTheNextRequestsWith429AndRetryAfterWithoutForwardingThenPasses() throws Exception {
        Injection storm = proxy.inject(RequestMatcher.pathPrefix("/list").method("GET"),
                Fault.tooManyRequests(Duration.ofMillis(1500)), 2);
        HttpClient client = client(proxy.connection());

        HttpResponse<String> first = send(client, request("/list"));
        HttpResponse<String> second = send(client, request("/list"));
        HttpResponse<String> third = send(client, request("/list"));

        assertThat(first.statusCode()).isEqualTo(429);
        assertThat(first.headers().firstValue("Retry-After")).hasValue("2");
        JsonNode status = json(first.body());
        assertThat(status.path("kind").asString()).isEqualTo("Status");
        assertThat(status.path("reason").asString()).isEqualTo("TooManyRequests");
        assertThat(status.path("details").path("retryAfterSeconds").asInt()).isEqualTo(2);
        assertThat(second.statusCode()).isEqualTo(429);
        assertThat(third.statusCode()).isEqualTo(200);
        assertThat(storm.matched()).isEqualTo(2);
        assertThat(storm.isActive()).isFalse();
        assertThat(server.received()).hasSize(1);
    }

    @Test
    void anErrorStatusStaysUntilRemoved() throws Exception {
        Injection unavailable = proxy.inject(RequestMatcher.all(), Fault.serviceUnavailable());
        HttpClient client = client(proxy.connection());

        int during = send(client, request("/list")).statusCode();
        unavailable.remove();
        int after = send(client, request("/list")).statusCode();

        assertThat(during).isEqualTo(503);
        assertThat(after).isEqualTo(200);
        assertThat(unavailable.isActive()).isFalse();
    }

    @Test
    void noFaultCountsEveryMatchingRequestWhateverElseApplies() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.gatewayTimeout(), 1);
        Injection lists = proxy.inject(RequestMatcher.pathPrefix("/list").method("GET").excludingWatches(), Fault.none());
        HttpClient client = client(proxy.connection());

        int firstStatus = send(client, request("/list")).statusCode();
        send(client, request("/list"));
        send(client, request("/list?watch=true"));
        send(client, request("/events"));

        assertThat(firstStatus).isEqualTo(504);
        assertThat(lists.matched()).isEqualTo(2);
    }

    @Test
    void aStormOfNRequestsAnswersExactlyNOfManyConcurrentRequestsOnManyConnections() throws Exception {
        Injection storm = proxy.inject(RequestMatcher.all(), Fault.serviceUnavailable(), 50);
        Injection all = proxy.inject(RequestMatcher.all(), Fault.none());
        List<CompletableFuture<List<Integer>>> clients = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(16);
        for (int c = 0; c < 16; c++) {
            HttpClient client = client(proxy.connection());
            clients.add(CompletableFuture.supplyAsync(() -> {
                List<Integer> statuses = new ArrayList<>();
                for (int r = 0; r < 10; r++) {
                    statuses.add(sendUnchecked(client, request(r % 2 == 0 ? "/list" : "/events")).statusCode());
                }
                return statuses;
            }, threads));
        }

        List<Integer> statuses = new ArrayList<>();
        try {
            for (CompletableFuture<List<Integer>> client : clients) {
                statuses.addAll(client.get(30, TimeUnit.SECONDS));
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(statuses).hasSize(160);
        assertThat(statuses).filteredOn(status -> status == 503).hasSize(50);
        assertThat(statuses).filteredOn(status -> status == 200).hasSize(110);
        assertThat(server.received()).hasSize(110);
        assertThat(storm.matched()).isEqualTo(50);
        assertThat(all.matched()).isEqualTo(160);
    }

    @Test
    void aCutStreamEndsInTheMiddleOfTheEventAfterTheKeptOnes() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/events"), Fault.cutAfterEvents(2));

        byte[] received = rawExchange("GET /events HTTP/1.1\r\nHost: proxy\r\n\r\n");

        String text = new String(received, StandardCharsets.UTF_8);
        assertThat(text).startsWith("HTTP/1.1 200").endsWith("\r\n\r\n8\r\n{\"n\":1}\n\r\n8\r\n{\"n\":2}\n\r\n8\r\n{\"n");
    }

    @Test
    void aClientReadingACutStreamGetsTheKeptEventsThenAnError() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/events"), Fault.cutAfterEvents(1));
        BufferedReader events = reader(client(proxy.connection())
                .send(request("/events").build(), HttpResponse.BodyHandlers.ofInputStream()));

        assertThat(events.readLine()).isEqualTo("{\"n\":1}");
        assertThatThrownBy(events::readLine).isInstanceOf(IOException.class);
    }

    @Test
    void aTruncatedListIsACompleteResponseWhoseJsonEndsTooEarly() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.truncatedBody());

        HttpResponse<String> response = send(client(proxy.connection()), request("/list"));

        String half = LIST.substring(0, (LIST.length() - 1) / 2);
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(half);
        assertThat(response.headers().firstValue("Content-Length")).hasValue(Integer.toString(half.length()));
    }

    @Test
    void aTruncatedStreamEndsCorrectlyInTheMiddleOfAnEvent() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/events"), Fault.truncatedAfterEvents(1));

        HttpResponse<String> response = send(client(proxy.connection()), request("/events"));

        assertThat(response.body()).isEqualTo("{\"n\":1}\n{\"n");
    }

    @Test
    void aMalformedBodyReplacesTheListAndAMalformedEventFollowsTheKeptOnes() throws Exception {
        proxy.inject(RequestMatcher.pathPrefix("/list"), Fault.malformedBody());
        proxy.inject(RequestMatcher.pathPrefix("/events"), Fault.malformedAfterEvents(1));
        HttpClient client = client(proxy.connection());

        HttpResponse<String> list = send(client, request("/list"));
        HttpResponse<String> events = send(client, request("/events"));

        assertThat(list.body()).isEqualTo(Fault.Malform.BODY);
        assertThat(list.headers().firstValue("Content-Length")).hasValue(Integer.toString(Fault.Malform.BODY.length()));
        assertThat(events.body()).isEqualTo("{\"n\":1}\n" + Fault.Malform.BODY);
        assertThat(send(client, request("/list?again")).body()).as("the connection stays usable")
                .isEqualTo(Fault.Malform.BODY);
    }

    @Test
    void halfOpenStallsOpenStreamsAndNewConnectionsUntilSwitchedOff() throws Exception {
        BufferedReader events = reader(client(proxy.connection())
                .send(request("/stream").build(), HttpResponse.BodyHandlers.ofInputStream()));
        assertThat(events.readLine()).isEqualTo("{\"n\":1}");

        proxy.halfOpen(true);
        secondEvent.countDown();
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> readLine(events));

        assertThatThrownBy(() -> second.get(300, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> send(client(proxy.connection()), request("/list").timeout(Duration.ofMillis(300))))
                .isInstanceOf(HttpTimeoutException.class);
        proxy.halfOpen(false);
        assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("{\"n\":2}");
        assertThat(send(client(proxy.connection()), request("/list")).statusCode()).isEqualTo(200);
    }

    @Test
    void aLostConnectionStaysSilentUntilTheClientLeavesWhileNewOnesAreServed() throws Exception {
        HttpResponse<InputStream> stream = client(proxy.connection())
                .send(request("/stream").build(), HttpResponse.BodyHandlers.ofInputStream());
        BufferedReader events = reader(stream);
        assertThat(events.readLine()).isEqualTo("{\"n\":1}");

        proxy.loseConnections();
        secondEvent.countDown();
        CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> readLine(events));

        assertThat(send(client(proxy.connection()), request("/list")).statusCode()).isEqualTo(200);
        assertThatThrownBy(() -> second.get(300, TimeUnit.MILLISECONDS)).as("the lost stream's next event")
                .isInstanceOf(TimeoutException.class);
        int open = proxy.openConnections();
        stream.body().close(); // not the reader: the pending read holds its lock
        Eventually.await("the lost connection to end once its client left", WAIT,
                () -> proxy.openConnections() == open - 1);
    }

    @Test
    void dropAllCutsOpenConnectionsAndResetsNewOnesUntilSwitchedOff() throws Exception {
        BufferedReader events = reader(client(proxy.connection())
                .send(request("/stream").build(), HttpResponse.BodyHandlers.ofInputStream()));
        assertThat(events.readLine()).isEqualTo("{\"n\":1}");

        proxy.dropAll(true);

        assertThatThrownBy(events::readLine).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> send(client(proxy.connection()), request("/list"))).isInstanceOf(IOException.class);
        Eventually.await("the connections to be gone", WAIT, () -> proxy.openConnections() == 0);
        proxy.dropAll(false);
        assertThat(send(client(proxy.connection()), request("/list")).statusCode()).isEqualTo(200);
    }

    @Test
    void cutConnectionsEndsTheOpenOnesOnce() throws Exception {
        BufferedReader events = reader(client(proxy.connection())
                .send(request("/stream").build(), HttpResponse.BodyHandlers.ofInputStream()));
        assertThat(events.readLine()).isEqualTo("{\"n\":1}");

        proxy.cutConnections();

        assertThatThrownBy(events::readLine).isInstanceOf(IOException.class);
        assertThat(send(client(proxy.connection()), request("/list")).statusCode()).isEqualTo(200);
    }

    @Test
    void anUnreachableServerCutsTheClientConnection(@TempDir Path elsewhere) throws Exception {
        ClusterConnection nowhere;
        try (ScriptedServer gone = new ScriptedServer(request -> ScriptedServer.json(200, "{}"))) {
            nowhere = gone.connection(elsewhere.resolve("kubeconfig"));
        }
        try (FaultProxy toNowhere = FaultProxy.start(nowhere)) {
            assertThatThrownBy(() -> send(client(toNowhere.connection()), request(toNowhere.uri(), "/list")))
                    .isInstanceOf(IOException.class);
        }
    }

    @Test
    void closingCutsHeldRequestsWithoutForwardingThemAndIsIdempotent() throws Exception {
        Injection hang = proxy.inject(RequestMatcher.all(), Fault.hang());
        CompletableFuture<HttpResponse<String>> held = client(proxy.connection())
                .sendAsync(request("/list").build(), HttpResponse.BodyHandlers.ofString());
        Eventually.await("the request to be held", WAIT, () -> hang.held() == 1);

        proxy.close();
        proxy.close();

        assertThatThrownBy(() -> held.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(IOException.class);
        assertThat(server.received()).isEmpty();
        assertThatThrownBy(() -> proxy.inject(RequestMatcher.all(), Fault.none()))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aProxyWithoutAFolderDeletesItsOwnWhenClosed() {
        Path kubeconfig;
        try (FaultProxy own = FaultProxy.start(server.connection(folder.resolve("upstream.kubeconfig")))) {
            kubeconfig = own.connection().kubeconfig();
            assertThat(kubeconfig).exists();
        }
        assertThat(kubeconfig.getParent()).doesNotExist();
    }

    @Test
    void anUpgradedConnectionCarriesBytesBothWays() throws Exception {
        try (SSLSocket socket = rawSocket()) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /upgrade HTTP/1.1\r\nHost: proxy\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            HttpHead response = HttpHead.read(in);
            out.write("ping\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();

            assertThat(response.status()).isEqualTo(101);
            assertThat(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).readLine())
                    .isEqualTo("echo: ping");
            assertThat(server.received().poll(5, TimeUnit.SECONDS).header("Upgrade")).isEqualTo("echo");
        }
    }

    private SSLSocket rawSocket() throws IOException {
        SSLSocket socket = (SSLSocket) proxy.connection().sslContext().getSocketFactory()
                .createSocket("127.0.0.1", proxy.uri().getPort());
        socket.setSoTimeout(5000);
        return socket;
    }

    private byte[] rawExchange(String request) throws IOException {
        try (SSLSocket socket = rawSocket()) {
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    received.write(buffer, 0, read);
                }
            } catch (IOException e) {
                // the abrupt end of a cut stream
            }
            return received.toByteArray();
        }
    }

    private static HttpClient client(ClusterConnection connection) {
        return HttpClient.newBuilder().sslContext(connection.sslContext()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private HttpRequest.Builder request(String path) {
        return request(proxy.uri(), path);
    }

    private static HttpRequest.Builder request(URI base, String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(WAIT);
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request)
            throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> sendUnchecked(HttpClient client, HttpRequest.Builder request) {
        try {
            return send(client, request);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static BufferedReader reader(HttpResponse<InputStream> response) {
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    private static String readLine(BufferedReader reader) {
        try {
            return reader.readLine();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(String body) {
        return KubernetesApi.json().readTree(body);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

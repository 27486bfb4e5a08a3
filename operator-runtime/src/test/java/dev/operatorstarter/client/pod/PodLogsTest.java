package dev.operatorstarter.client.pod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.ResponseTooLargeException;
import dev.operatorstarter.client.rest.RestClient;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

/**
 * How a log's bytes become lines and options become the query, against an in-process server that
 * cuts lines across chunks where it likes; the real API server and KWOK are in {@code PodStreamsIT}.
 */
class PodLogsTest {

    private final List<String> requests = new CopyOnWriteArrayList<>();
    private DisposableServer server;
    private RestClient rest;

    @AfterEach
    void stop() {
        if (rest != null) {
            rest.close();
            server.disposeNow();
        }
    }

    private PodStreams serving(String... chunks) {
        return serving(ClientOptions.defaults(), chunks);
    }

    private PodStreams serving(ClientOptions options, String... chunks) {
        server = HttpServer.create().host("127.0.0.1").port(0).handle((request, response) -> {
            requests.add(request.uri());
            return response.header("Content-Type", "text/plain").sendString(
                    Flux.fromArray(chunks).delayElements(Duration.ofMillis(1))).then();
        }).bindNow();
        rest = RestClient.create(new ClientConfig(URI.create("http://127.0.0.1:" + server.port()),
                TlsSettings.defaults(), Credentials.none(), null, "default", "test"), options);
        return PodStreams.of(rest, "shop", "web-0");
    }

    @Test
    void linesAreSplitAtLineEndsWhereverTheChunksAreCut() {
        PodStreams pod = serving("sta", "rted\nlisten", "ing on 80\r\n", "GET /\n", "last without end");

        assertThat(pod.logs().lines().collectList().block(Duration.ofSeconds(10)))
                .containsExactly("started", "listening on 80", "GET /", "last without end");
    }

    @Test
    void everyOptionIsAQueryParameter() {
        PodStreams pod = serving("x\n");

        pod.logs(LogOptions.builder().container("nginx").follow(true).previous(true).timestamps(true)
                .sinceTime(Instant.parse("2026-11-28T10:00:00Z")).tailLines(10L).limitBytes(4096L).build())
                .lines().blockLast(Duration.ofSeconds(10));
        pod.logs(LogOptions.builder().sinceSeconds(60L).build()).read();

        assertThat(requests).containsExactly(
                "/api/v1/namespaces/shop/pods/web-0/log?container=nginx&follow=true&previous=true&timestamps=true"
                        + "&sinceTime=2026-11-28T10%3A00%3A00Z&tailLines=10&limitBytes=4096",
                "/api/v1/namespaces/shop/pods/web-0/log?sinceSeconds=60");
    }

    @Test
    void readReturnsTheWholeLogAndRefusesFollow() {
        PodStreams pod = serving("one\n", "two\n");

        assertThat(pod.logs().read()).isEqualTo("one\ntwo\n");
        assertThatThrownBy(() -> pod.logs(LogOptions.builder().follow(true).build()).read())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("use lines() or stream()");
    }

    @Test
    void theBlockingStreamDeliversLinesAndClosesTheConnectionWhenClosed() {
        PodStreams pod = serving("a\n", "b\n", "c\n");

        try (Stream<String> lines = pod.logs().stream()) {
            assertThat(lines.limit(2)).containsExactly("a", "b");
        }
    }

    @Test
    void closingAFollowedStreamClosesTheConnection() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        server = HttpServer.create().host("127.0.0.1").port(0).handle((request, response) -> response
                .header("Content-Type", "text/plain")
                .sendString(Flux.interval(Duration.ofMillis(10)).map(i -> "line " + i + "\n")
                        .doOnCancel(cancelled::countDown)).then()).bindNow();
        rest = RestClient.create(new ClientConfig(URI.create("http://127.0.0.1:" + server.port()),
                TlsSettings.defaults(), Credentials.none(), null, "default", "test"), ClientOptions.defaults());
        PodStreams pod = PodStreams.of(rest, "shop", "web-0");

        try (Stream<String> lines = pod.logs(LogOptions.builder().follow(true).build()).stream()) {
            assertThat(lines.limit(3)).containsExactly("line 0", "line 1", "line 2");
        }

        assertThat(cancelled.await(10, TimeUnit.SECONDS)).as("the server saw the connection close").isTrue();
    }

    @Test
    void aLineLongerThanMaxResponseBytesFailsNamingThePod() {
        PodStreams pod = serving(ClientOptions.builder().maxResponseBytes(1024).build(), "x".repeat(4096) + "\n");

        assertThatThrownBy(() -> pod.logs(LogOptions.builder().container("nginx").build()).lines().blockLast())
                .isInstanceOf(ResponseTooLargeException.class)
                .hasMessage("the log of pod shop/web-0 (container nginx) has a line longer than the client's"
                        + " maxResponseBytes (1024 bytes)");
    }

    @Test
    void optionsThatExcludeEachOtherAreRefusedNamingTheFields() {
        assertThatThrownBy(() -> LogOptions.builder().sinceSeconds(5L).sinceTime(Instant.now()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sinceSeconds and sinceTime exclude each other; set one");
        assertThatThrownBy(() -> LogOptions.builder().tailLines(-1L).build())
                .hasMessage("tailLines must not be negative, was -1");
    }
}

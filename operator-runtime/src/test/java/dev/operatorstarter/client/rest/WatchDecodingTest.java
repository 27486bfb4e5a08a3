package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Signal;
import tools.jackson.core.JacksonException;

class WatchDecodingTest {

    private static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("shop").addToLabels("app", "web")
                .endMetadata().withNewSpec().addNewContainer().withName("app").withImage("web:1")
                .withNewResources().addToRequests("cpu", new Quantity("250m")).addToLimits("memory", new Quantity("512Mi"))
                .endResources().withNewReadinessProbe().withNewHttpGet().withPath("/ready")
                .withPort(new IntOrString("http")).endHttpGet().endReadinessProbe()
                .withNewLivenessProbe().withNewTcpSocket().withPort(new IntOrString(8080)).endTcpSocket().endLivenessProbe()
                .endContainer().endSpec().build();
    }

    /** The bytes of {@code events} (one JSON object per line) cut into {@code size}-byte chunks. */
    private static Flux<DataBuffer> chunks(int size, Map<?, ?>... events) {
        StringBuilder text = new StringBuilder();
        for (Map<?, ?> event : events) {
            text.append(line(event));
        }
        return chunks(size, text.toString());
    }

    @Test
    void podsWithIntOrStringPortsAndQuantitiesDecodeIntactWhateverTheChunking() {
        Pod first = pod("a");
        Pod second = pod("b");
        for (int size : new int[] {1, 7, 64, 100_000}) {
            List<WatchEvent<Pod>> events = WatchDecoding.<Pod>decode(chunks(size, Map.of("type", "ADDED", "object", first),
                    Map.of("type", "MODIFIED", "object", second)), Json.MAPPER.constructType(Pod.class), "test")
                    .collectList().block();
            assertThat(events).as("chunks of %d bytes", size)
                    .containsExactly(new WatchEvent.Added<>(first), new WatchEvent.Modified<>(second));
        }
    }

    @Test
    void bookmarksAndErrorsKeepTheirOwnShapes() {
        List<WatchEvent<Pod>> events = WatchDecoding.<Pod>decode(chunks(5,
                Map.of("type", "BOOKMARK", "object", Map.of("kind", "Pod", "apiVersion", "v1", "metadata",
                        Map.of("resourceVersion", "42", "annotations", Map.of("k8s.io/initial-events-end", "true")))),
                Map.of("type", "ERROR", "object", Map.of("kind", "Status", "apiVersion", "v1", "status", "Failure",
                        "reason", "Expired", "code", 410, "message", "too old resource version"))),
                Json.MAPPER.constructType(Pod.class), "test").collectList().block();
        assertThat(events.get(0)).isInstanceOfSatisfying(WatchEvent.Bookmark.class, bookmark -> {
            assertThat(bookmark.resourceVersion()).isEqualTo("42");
            assertThat(bookmark.endsInitialEvents()).isTrue();
        });
        assertThat(events.get(1)).isInstanceOfSatisfying(WatchEvent.Error.class,
                error -> assertThat(error.status().getCode()).isEqualTo(410));
    }

    @Test
    void anEventWithoutObjectFailsNamingTheSource() {
        assertThatThrownBy(() -> WatchDecoding.<Pod>decode(chunks(16, Map.of("type", "ADDED")),
                Json.MAPPER.constructType(Pod.class), "GET /api/v1/pods").blockLast())
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("GET /api/v1/pods")
                .hasMessageContaining("without object");
    }

    /** {@code text} as one chunk, as one network read may deliver several events. */
    private static Flux<DataBuffer> oneChunk(String text) {
        return Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** {@code event} on a line of its own, its type first as the API server writes it. */
    private static String line(Map<?, ?> event) {
        Map<Object, Object> ordered = new LinkedHashMap<>();
        if (event.containsKey("type")) {
            ordered.put("type", event.get("type"));
        }
        ordered.putAll(event);
        return Json.MAPPER.writeValueAsString(ordered) + "\n";
    }

    @Test
    void theEventsBeforeALineThatIsNotJsonArriveBeforeTheError() {
        String text = line(Map.of("type", "ADDED", "object", pod("a"))) + line(Map.of("type", "ADDED", "object", pod("b")))
                + "{\"type\":\"MODIFIED\",\"object\": malformed}\n" + line(Map.of("type", "ADDED", "object", pod("c")));

        List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(oneChunk(text),
                Json.MAPPER.constructType(Pod.class), "test").materialize().collectList().block();

        assertThat(signals).hasSize(3);
        assertThat(signals.get(0).get()).isEqualTo(new WatchEvent.Added<>(pod("a")));
        assertThat(signals.get(1).get()).isEqualTo(new WatchEvent.Added<>(pod("b")));
        assertThat(signals.get(2).isOnError()).isTrue();
    }

    @Test
    void aStreamThatEndsInTheMiddleOfAnEventFailsAfterTheCompleteOnes() {
        String text = line(Map.of("type", "ADDED", "object", pod("a"))) + "{\"type\":\"ADDED\",\"obj";

        List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(oneChunk(text),
                Json.MAPPER.constructType(Pod.class), "test").materialize().collectList().block();

        assertThat(signals).hasSize(2);
        assertThat(signals.get(0).get()).isEqualTo(new WatchEvent.Added<>(pod("a")));
        assertThat(signals.get(1).isOnError()).as("an event cut short is an error, not the end of the stream").isTrue();
    }

    @Test
    void blankLinesBetweenEventsAreIgnored() {
        String text = "\n" + line(Map.of("type", "ADDED", "object", pod("a"))) + "\r\n\n"
                + line(Map.of("type", "DELETED", "object", pod("a")));

        List<WatchEvent<Pod>> events = WatchDecoding.<Pod>decode(oneChunk(text), Json.MAPPER.constructType(Pod.class),
                "test").collectList().block();

        assertThat(events).containsExactly(new WatchEvent.Added<>(pod("a")), new WatchEvent.Deleted<>(pod("a")));
    }

    @Test
    void everyChunkingOfAStreamYieldsTheSameEventsInOrder() {
        Map<?, ?>[] sent = {Map.of("type", "ADDED", "object", pod("a")), Map.of("type", "BOOKMARK", "object",
                Map.of("metadata", Map.of("resourceVersion", "7"))), Map.of("type", "MODIFIED", "object", pod("b")),
                Map.of("type", "DELETED", "object", pod("a"))};
        int length = Arrays.stream(sent).mapToInt(event -> line(event).length()).sum();
        for (int size = 1; size <= length + 1; size++) {
            List<WatchEvent<Pod>> events = WatchDecoding.<Pod>decode(chunks(size, sent),
                    Json.MAPPER.constructType(Pod.class), "test").collectList().block();
            assertThat(events).as("chunks of %d bytes", size).containsExactly(new WatchEvent.Added<>(pod("a")),
                    new WatchEvent.Bookmark<>("7", Map.of()), new WatchEvent.Modified<>(pod("b")),
                    new WatchEvent.Deleted<>(pod("a")));
        }
    }

    @Test
    void aLargeObjectSplitAcrossManyChunksDecodesIntact() {
        StringBuilder value = new StringBuilder();
        for (int i = 0; value.length() < 1_000_000; i++) {
            value.append("line ").append(i).append(" of a large file, with \"quotes\" and ünïcödé\n");
        }
        ConfigMap large = new ConfigMapBuilder().withNewMetadata().withName("large").withNamespace("shop").endMetadata()
                .addToData("file.txt", value.toString()).build();
        ConfigMap small = new ConfigMapBuilder().withNewMetadata().withName("small").endMetadata().build();

        for (int size : new int[] {997, 16 * 1024}) {
            List<WatchEvent<ConfigMap>> events = WatchDecoding.<ConfigMap>decode(chunks(size,
                    Map.of("type", "ADDED", "object", small), Map.of("type", "ADDED", "object", large),
                    Map.of("type", "DELETED", "object", small)), Json.MAPPER.constructType(ConfigMap.class), "test")
                    .collectList().block();
            assertThat(events).as("chunks of %d bytes", size).containsExactly(new WatchEvent.Added<>(small),
                    new WatchEvent.Added<>(large), new WatchEvent.Deleted<>(small));
        }
    }

    @Test
    void anEventThatPutsItsObjectBeforeItsTypeStillDecodes() {
        Pod pod = pod("a");
        String object = Json.MAPPER.writeValueAsString(pod);
        String text = "{\"object\":" + object + ",\"type\":\"MODIFIED\"}\n"
                + "{\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}},\"type\":\"BOOKMARK\"}\n"
                + "{\"kind\":\"WatchEvent\",\"type\":\"DELETED\",\"object\":" + object + "}\n";

        for (int size : new int[] {1, 13, text.length()}) {
            List<WatchEvent<Pod>> events = WatchDecoding.<Pod>decode(chunks(size, text),
                    Json.MAPPER.constructType(Pod.class), "test").collectList().block();
            assertThat(events).as("chunks of %d bytes", size).containsExactly(new WatchEvent.Modified<>(pod),
                    new WatchEvent.Bookmark<>("9", Map.of()), new WatchEvent.Deleted<>(pod));
        }
    }

    @Test
    void anObjectOfTheWrongShapeFailsNamingTheSourceTheTypeAndTheField() {
        String text = line(Map.of("type", "ADDED", "object", pod("a")))
                + "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"b\"},\"spec\":{\"containers\":7}}}\n";

        List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(chunks(10, text),
                Json.MAPPER.constructType(Pod.class), "GET /api/v1/pods?watch=true").materialize().collectList().block();

        assertThat(signals).hasSize(2);
        assertThat(signals.get(0).get()).isEqualTo(new WatchEvent.Added<>(pod("a")));
        assertThat(signals.get(1).getThrowable()).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("GET /api/v1/pods?watch=true").hasMessageContaining("MODIFIED")
                .hasMessageContaining("not a valid Pod at spec.containers");
    }

    @Test
    void anObjectCutShortInsideTheLineIsAJsonErrorAfterTheEventsBeforeIt() {
        String text = line(Map.of("type", "ADDED", "object", pod("a")))
                + "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"b\"}\n";

        for (int size : new int[] {1, 64, text.length()}) {
            List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(chunks(size, text),
                    Json.MAPPER.constructType(Pod.class), "test").materialize().collectList().block();
            assertThat(signals).as("chunks of %d bytes", size).hasSize(2);
            assertThat(signals.get(0).get()).isEqualTo(new WatchEvent.Added<>(pod("a")));
            assertThat(signals.get(1).getThrowable()).isInstanceOf(JacksonException.class);
        }
    }

    @Test
    void unknownTypesNonObjectsAndMissingObjectsAreErrorsThatSayWhat() {
        assertThat(failure("{\"type\":\"RESIZED\",\"object\":{}}\n")).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("unknown type \"RESIZED\"");
        assertThat(failure("[\"ADDED\"]\n")).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("not a JSON object");
        assertThat(failure("{\"type\":\"ADDED\",\"object\":null}\n")).isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("ADDED watch event without object");
    }

    @Test
    void aLineLongerThanTheLimitFailsAfterTheEventsBeforeItWhateverTheChunking() {
        String big = "x".repeat(8 * 1024);
        String text = line(Map.of("type", "ADDED", "object", pod("a"))) + line(Map.of("type", "ADDED", "object", pod("b")))
                + line(Map.of("type", "ADDED", "object", Map.of("metadata", Map.of("name", "big"), "spec",
                        Map.of("nodeName", big)))) + line(Map.of("type", "ADDED", "object", pod("c")));
        int whole = text.getBytes(StandardCharsets.UTF_8).length;
        for (int size : new int[] {1, 7, 1000, 4096, 5000, 9000, whole}) {
            List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(chunks(size, text),
                    Json.MAPPER.constructType(Pod.class), "GET /api/v1/pods?watch=true", 4096).materialize()
                    .collectList().block();

            assertThat(signals).as("chunks of %d bytes", size).hasSize(3);
            assertThat(signals.get(0).get()).isEqualTo(new WatchEvent.Added<>(pod("a")));
            assertThat(signals.get(1).get()).isEqualTo(new WatchEvent.Added<>(pod("b")));
            assertThat(signals.get(2).getThrowable()).as("chunks of %d bytes", size)
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessage("watch event on GET /api/v1/pods?watch=true exceeded the 4 KiB limit of one watch event "
                            + "(ClientOptions.maxWatchEventBytes)");
        }
    }

    @Test
    void aLineThatNeverEndsFailsOnceItPassesTheLimitWithoutReadingOn() {
        java.util.concurrent.atomic.AtomicInteger read = new java.util.concurrent.atomic.AtomicInteger();
        byte[] chunk = "x".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        Flux<DataBuffer> endless = Flux.<DataBuffer>generate(sink -> {
            read.incrementAndGet();
            sink.next(DefaultDataBufferFactory.sharedInstance.wrap(chunk.clone()));
        });

        assertThatThrownBy(() -> WatchDecoding.<Pod>decode(endless, Json.MAPPER.constructType(Pod.class), "test",
                64 * 1024).blockLast(java.time.Duration.ofSeconds(30)))
                .isInstanceOf(KubernetesClientException.class).hasMessageContaining("exceeded the 64 KiB limit");
        assertThat(read.get()).as("chunks read: the line fails with the chunk that passes the limit, plus prefetch")
                .isLessThan(66 + 256);
    }

    @Test
    void aLineOfExactlyTheLimitDecodesAndOneByteMoreDoesNot() {
        String event = line(Map.of("type", "ADDED", "object", pod("a")));
        int limit = event.getBytes(StandardCharsets.UTF_8).length - 1; // without its newline
        String text = event + event;
        for (int size : new int[] {1, 13, limit, limit + 1, 2 * limit + 2}) {
            assertThat(WatchDecoding.<Pod>decode(chunks(size, text), Json.MAPPER.constructType(Pod.class), "test", limit)
                    .collectList().block()).as("chunks of %d bytes", size).hasSize(2);
            assertThatThrownBy(() -> WatchDecoding.<Pod>decode(chunks(size, text), Json.MAPPER.constructType(Pod.class),
                    "test", limit - 1).collectList().block()).as("chunks of %d bytes", size)
                    .isInstanceOf(KubernetesClientException.class).hasMessageContaining("limit of one watch event");
        }
        // the last line, without a newline, is held to the same limit
        String unterminated = event.substring(0, limit);
        assertThat(WatchDecoding.<Pod>decode(chunks(7, unterminated), Json.MAPPER.constructType(Pod.class), "test",
                limit).collectList().block()).hasSize(1);
        assertThatThrownBy(() -> WatchDecoding.<Pod>decode(chunks(7, unterminated), Json.MAPPER.constructType(Pod.class),
                "test", limit - 1).collectList().block()).isInstanceOf(KubernetesClientException.class);
    }

    private static Throwable failure(String text) {
        List<Signal<WatchEvent<Pod>>> signals = WatchDecoding.<Pod>decode(oneChunk(text),
                Json.MAPPER.constructType(Pod.class), "test").materialize().collectList().block();
        assertThat(signals).hasSize(1);
        return signals.get(0).getThrowable();
    }

    /** {@code text} cut into {@code size}-byte chunks. */
    private static Flux<DataBuffer> chunks(int size, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<byte[]> parts = new ArrayList<>();
        for (int offset = 0; offset < bytes.length; offset += size) {
            parts.add(Arrays.copyOfRange(bytes, offset, Math.min(bytes.length, offset + size)));
        }
        return Flux.fromIterable(parts).map(DefaultDataBufferFactory.sharedInstance::wrap);
    }
}

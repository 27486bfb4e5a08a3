package dev.operatorstarter.client.rest;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import reactor.core.publisher.Flux;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

/**
 * Turns the bytes of a watch response, in whatever chunks the network delivers them, into
 * {@link WatchEvent}s as each event completes (events span chunks; a chunk may hold many).
 * The API server writes one event per line, so each line is decoded on its own: the events before
 * a malformed one are delivered before its error, however the bytes were chunked.
 * {@link Request#watch} uses it.
 *
 * <p><b>Not API.</b> Applications watch through {@link Request#watch} or a resource client. This
 * class is public only so that the benchmarks module's {@code DecodeBenchmark} can compare the decoder
 * with a plain Jackson parse of the same bytes with no network in between (through
 * {@code Request.watch} it would measure an HTTP exchange too); it may change in any release.
 */
public final class WatchDecoding {

    private WatchDecoding() {
    }

    /**
     * The events in {@code chunks}, each object decoded as {@code type}. Fails on a malformed
     * event, or a stream that ends in the middle of one, after the events before it: with a
     * {@link KubernetesClientException} naming {@code source}, or a {@link JacksonException} for
     * a line that is not JSON (the transport names the request for it).
     */
    public static <T> Flux<WatchEvent<T>> decode(Flux<DataBuffer> chunks, JavaType type, String source) {
        return Flux.defer(() -> {
            Lines lines = new Lines();
            return chunks.concatMapIterable(lines::complete)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(lines.unfinished())))
                    .map(line -> WatchDecoding.<T>event(Json.MAPPER.readValue(line, RawWatchEvent.class), type, source));
        });
    }

    /** Splits a byte stream into lines, keeping an unfinished line across chunks; skips blank lines. */
    private static final class Lines {
        private byte[] pending = new byte[0];
        private int pendingLength;

        List<byte[]> complete(DataBuffer chunk) {
            byte[] bytes;
            try {
                bytes = new byte[chunk.readableByteCount()];
                chunk.read(bytes);
            } finally {
                DataBufferUtils.release(chunk);
            }
            List<byte[]> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < bytes.length; i++) {
                if (bytes[i] == '\n') {
                    byte[] line = take(bytes, start, i);
                    if (!blank(line)) {
                        lines.add(line);
                    }
                    start = i + 1;
                }
            }
            keep(bytes, start, bytes.length);
            return lines;
        }

        /** What is left once the stream ended: an event without its newline, or the start of one. */
        List<byte[]> unfinished() {
            byte[] rest = take(pending, 0, 0);
            return blank(rest) ? List.of() : List.of(rest);
        }

        /** The pending bytes followed by {@code bytes[from, to)}; clears the pending ones. */
        private byte[] take(byte[] bytes, int from, int to) {
            byte[] line = new byte[pendingLength + to - from];
            System.arraycopy(pending, 0, line, 0, pendingLength);
            System.arraycopy(bytes, from, line, pendingLength, to - from);
            pendingLength = 0;
            return line;
        }

        private void keep(byte[] bytes, int from, int to) {
            int length = to - from;
            if (pendingLength + length > pending.length) {
                pending = Arrays.copyOf(pending, Math.max(pendingLength + length, pending.length * 2));
            }
            System.arraycopy(bytes, from, pending, pendingLength, length);
            pendingLength += length;
        }

        private static boolean blank(byte[] line) {
            for (byte b : line) {
                if (b != ' ' && b != '\t' && b != '\r') {
                    return false;
                }
            }
            return true;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> WatchEvent<T> event(RawWatchEvent raw, JavaType type, String source) {
        String eventType = raw.type() == null ? "" : raw.type();
        JsonNode object = raw.object();
        if (object == null || object.isNull()) {
            throw new KubernetesClientException(source + " sent a " + eventType + " watch event without object");
        }
        try {
            return switch (eventType) {
                case "ADDED" -> new WatchEvent.Added<>((T) Json.MAPPER.treeToValue(object, type));
                case "MODIFIED" -> new WatchEvent.Modified<>((T) Json.MAPPER.treeToValue(object, type));
                case "DELETED" -> new WatchEvent.Deleted<>((T) Json.MAPPER.treeToValue(object, type));
                case "BOOKMARK" -> bookmark(object);
                case "ERROR" -> new WatchEvent.Error<>(Json.MAPPER.treeToValue(object, Status.class));
                default -> throw new KubernetesClientException(source + " sent a watch event of unknown type \""
                        + eventType + "\"");
            };
        } catch (JacksonException e) {
            throw new KubernetesClientException(source + " sent a " + eventType + " watch event whose object is "
                    + "not a valid " + type.getRawClass().getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    private static <T> WatchEvent<T> bookmark(JsonNode object) {
        JsonNode metadata = object.path("metadata");
        Map<String, String> annotations = new HashMap<>();
        metadata.path("annotations").properties().forEach(entry -> annotations.put(entry.getKey(),
                entry.getValue().asString("")));
        return new WatchEvent.Bookmark<>(metadata.path("resourceVersion").asString(""), annotations);
    }

    /** A watch event as sent: the type, and the object still as a tree until the type says what it is. */
    record RawWatchEvent(@Nullable String type, @Nullable JsonNode object) {
    }
}

package dev.operatorstarter.client.rest;

import dev.operatorstarter.client.internal.Json;
import io.fabric8.kubernetes.api.model.Status;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.json.JacksonJsonDecoder;
import reactor.core.publisher.Flux;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;

/**
 * Turns the bytes of a watch response, in whatever chunks the network delivers them, into
 * {@link WatchEvent}s as each event completes (events span chunks; a chunk may hold many).
 * {@link Request#watch} uses it; it is public so the decoding can be measured without a network.
 */
public final class WatchDecoding {

    private static final JacksonJsonDecoder WATCH_DECODER = watchDecoder();
    private static final ResolvableType RAW_EVENT = ResolvableType.forClass(RawWatchEvent.class);

    private WatchDecoding() {
    }

    /**
     * The events in {@code chunks}, each object decoded as {@code type}. Fails with a
     * {@link KubernetesClientException} naming {@code source} on a malformed event.
     */
    public static <T> Flux<WatchEvent<T>> decode(Flux<DataBuffer> chunks, JavaType type, String source) {
        return WATCH_DECODER.decode(chunks.map(WatchDecoding::onHeap), RAW_EVENT, MediaType.APPLICATION_JSON, Map.of())
                .map(raw -> WatchDecoding.<T>event((RawWatchEvent) raw, type, source));
    }

    /**
     * Copies a network chunk to the heap and releases it at once. Spring's Jackson tokenizer
     * releases a chunk it fails to parse and Reactor then discards (releases) it again; on a
     * pooled Netty buffer that second release frees memory Netty still uses. A heap copy of each
     * chunk (never of the whole stream) makes the second release harmless.
     */
    private static DataBuffer onHeap(DataBuffer chunk) {
        try {
            byte[] bytes = new byte[chunk.readableByteCount()];
            chunk.read(bytes);
            return DefaultDataBufferFactory.sharedInstance.wrap(bytes);
        } finally {
            DataBufferUtils.release(chunk);
        }
    }

    private static JacksonJsonDecoder watchDecoder() {
        JacksonJsonDecoder decoder = new JacksonJsonDecoder(Json.MAPPER);
        decoder.setMaxInMemorySize(-1); // one event may be large (a big Secret or CRD)
        return decoder;
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

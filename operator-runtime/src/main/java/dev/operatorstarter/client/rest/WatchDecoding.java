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
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectReader;
import tools.jackson.databind.ValueDeserializer;

/**
 * Turns the bytes of a watch response, in whatever chunks the network delivers them, into
 * {@link WatchEvent}s as each event completes (events span chunks; a chunk may hold many).
 * {@link Request#watch} uses it.
 *
 * <p>The API server writes one event per line, {@code type} before {@code object}. Every event is
 * parsed once, where its bytes lie: the lines that a chunk holds whole go through one parser over
 * the chunk (only a line that spans chunks is copied, and parsed on its own once it ends); the
 * type is read first, then the object is bound straight from the parser into its class, with no
 * tree and no replay in between. An event that puts {@code object} first (no API server does; a
 * proxy might) still decodes, through a tree. Events are decoded in order and the first that fails
 * ends the stream, so the events before a malformed one are delivered before its error, however
 * the bytes were chunked. No message quotes the event's content (a Secret's data would reach the
 * logs): a decoding error names where in the object it happened and what kind of error it is.
 *
 * <p>One event may take at most a given number of bytes (client-go's frame limit;
 * {@link ClientOptions#maxWatchEventBytes()}): a longer line fails the stream as soon as its bytes
 * pass the limit, without waiting for its end, so a server or proxy that never ends a line cannot
 * fill the heap.
 *
 * <p>Applications watch through {@link Request#watch} or a resource client. The benchmarks'
 * {@code DecodeBenchmark} measures this decoder through {@code Request.watch} too, with an
 * interceptor ({@link ClientOptions#interceptors()}) that answers from memory instead of a network.
 */
final class WatchDecoding {

    private WatchDecoding() {
    }

    /** {@link #decode(Flux, JavaType, String, int)} with the default limit on one event, 16 MiB. */
    static <T> Flux<WatchEvent<T>> decode(Flux<DataBuffer> chunks, JavaType type, String source) {
        return decode(chunks, type, source, ClientOptions.SIXTEEN_MIB);
    }

    /**
     * The events in {@code chunks}, each object decoded as {@code type}. Fails on a malformed
     * event, an event longer than {@code maxEventBytes}, or a stream that ends in the middle of an
     * event, after the events before it: with a {@link KubernetesClientException} naming
     * {@code source}, or a {@link JacksonException} for a line that is not JSON (the transport
     * names the request for it).
     */
    static <T> Flux<WatchEvent<T>> decode(Flux<DataBuffer> chunks, JavaType type, String source,
            int maxEventBytes) {
        if (maxEventBytes < 1) {
            throw new IllegalArgumentException("maxEventBytes must be at least 1 byte, was " + maxEventBytes);
        }
        return Flux.defer(() -> {
            Lines<T> lines = new Lines<>(new EventReader<>(type, source), maxEventBytes, source);
            return chunks.concatMapIterable(lines::complete)
                    .concatWith(Flux.defer(() -> Flux.fromIterable(lines.unfinished())))
                    .handle((item, sink) -> {
                        if (item instanceof RuntimeException failure) {
                            sink.error(failure);
                        } else {
                            @SuppressWarnings("unchecked")
                            WatchEvent<T> event = (WatchEvent<T>) item;
                            sink.next(event);
                        }
                    });
        });
    }

    /**
     * Splits a byte stream into lines and decodes the complete ones, keeping an unfinished line
     * across chunks. What a chunk yields is its events in order, ended by the failure of the first
     * event that did not decode, if any (so the events before it still arrive).
     */
    private static final class Lines<T> {
        private final EventReader<T> reader;
        private final int maxLineBytes;
        private final String source;
        private byte[] chunkBytes = new byte[0];
        private byte[] pending = new byte[0];
        private int pendingLength;
        private boolean failed;

        Lines(EventReader<T> reader, int maxLineBytes, String source) {
            this.reader = reader;
            this.maxLineBytes = maxLineBytes;
            this.source = source;
        }

        List<Object> complete(DataBuffer chunk) {
            int length;
            try {
                if (failed) {
                    return List.of();
                }
                length = chunk.readableByteCount();
                if (length > chunkBytes.length) {
                    chunkBytes = new byte[length];
                }
                chunk.read(chunkBytes, 0, length);
            } finally {
                DataBufferUtils.release(chunk);
            }
            byte[] bytes = chunkBytes;
            int first = firstNewline(bytes, 0, length);
            if (first < 0) {
                List<Object> decoded = new ArrayList<>(0);
                keep(bytes, 0, length, decoded);
                return decoded;
            }
            int last = lastNewline(bytes, first, length);
            List<Object> decoded = new ArrayList<>();
            int start = 0;
            if (pendingLength > 0) {
                // the line that began in earlier chunks ends here: decoded on its own, from the pending bytes
                if (!keep(bytes, 0, first, decoded)) {
                    return decoded;
                }
                int lineLength = pendingLength;
                pendingLength = 0;
                start = first + 1;
                if (!decode(pending, 0, lineLength, decoded)) {
                    return decoded;
                }
            }
            // every line that lies wholly in this chunk, through one parser, where the bytes are
            if (start <= last) {
                int end = last + 1;
                // only a span longer than the limit can hold a line longer than the limit
                int tooLong = end - start > maxLineBytes ? firstLineTooLong(bytes, start, end) : -1;
                if (!decode(bytes, start, (tooLong < 0 ? end : tooLong) - start, decoded)) {
                    return decoded;
                }
                if (tooLong >= 0) {
                    fail(decoded);
                    return decoded;
                }
            }
            keep(bytes, last + 1, length, decoded);
            return decoded;
        }

        /*
         * The scans are methods of their own, not loops in complete(): a loop that runs hot makes the
         * JIT compile its whole method on the stack (OSR), with the Jackson code it inlines, again each
         * time the method deoptimizes; a small method is compiled once, cheaply, and complete(), called
         * once per chunk, is compiled as a whole when it is hot.
         */

        /** The index of the first newline in {@code bytes[from, to)}, or -1. */
        private static int firstNewline(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                if (bytes[i] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        /** The index of the last newline in {@code bytes[from, to)}, which holds one at {@code from}. */
        private static int lastNewline(byte[] bytes, int from, int to) {
            int last = to - 1;
            while (bytes[last] != '\n') {
                last--;
            }
            return last;
        }

        /** Where the first line in {@code bytes[from, to)} (which ends with a newline) longer than the limit starts, or -1. */
        private int firstLineTooLong(byte[] bytes, int from, int to) {
            int lineStart = from;
            for (int i = from; i < to; i++) {
                if (bytes[i] == '\n') {
                    if (i - lineStart > maxLineBytes) {
                        return lineStart;
                    }
                    lineStart = i + 1;
                }
            }
            return -1;
        }

        /** Ends the stream with the error for a line over the limit, and lets go of its bytes. */
        private void fail(List<Object> decoded) {
            decoded.add(new ResponseTooLargeException("watch event on " + source + " exceeded the "
                    + ByteSizes.describe(maxLineBytes) + " limit of one watch event (ClientOptions.maxWatchEventBytes)"));
            failed = true;
            pending = new byte[0];
            pendingLength = 0;
            chunkBytes = new byte[0];
        }

        /** What is left once the stream ended: an event without its newline, or the start of one. */
        List<Object> unfinished() {
            List<Object> decoded = new ArrayList<>(1);
            int lineLength = pendingLength;
            pendingLength = 0;
            if (!failed) {
                decode(pending, 0, lineLength, decoded);
            }
            return decoded;
        }

        /** Adds the events in the lines in {@code bytes[offset, offset + length)}, or the failure that stops them. */
        private boolean decode(byte[] bytes, int offset, int length, List<Object> decoded) {
            try {
                reader.read(bytes, offset, length, decoded);
                return true;
            } catch (RuntimeException e) {
                decoded.add(e);
                failed = true;
                return false;
            }
        }

        /**
         * Adds {@code bytes[from, to)} to the unfinished line; false, with the failure added to
         * {@code decoded}, when that makes the line longer than the limit.
         */
        private boolean keep(byte[] bytes, int from, int to, List<Object> decoded) {
            int length = to - from;
            if (length > maxLineBytes - pendingLength) {
                fail(decoded);
                return false;
            }
            if (pendingLength + length > pending.length) {
                pending = Arrays.copyOf(pending, (int) Math.min(maxLineBytes,
                        Math.max(pendingLength + length, pending.length * 2L)));
            }
            System.arraycopy(bytes, from, pending, pendingLength, length);
            pendingLength += length;
            return true;
        }
    }

    /**
     * Decodes events from their bytes: one parser, and so one deserialization context, for all the
     * events in a run of lines; the object's deserializer is looked up once per watch.
     */
    private static final class EventReader<T> {
        private final JavaType type;
        private final ObjectReader objects;
        private final String source;
        private @Nullable ValueDeserializer<Object> deserializer;

        EventReader(JavaType type, String source) {
            this.type = type;
            this.objects = Json.MAPPER.readerFor(type);
            this.source = source;
        }

        /** Adds the events in {@code bytes[offset, offset + length)}, whitespace-separated JSON objects, to {@code decoded}. */
        void read(byte[] bytes, int offset, int length, List<Object> decoded) {
            try (JsonParser parser = objects.createParser(bytes, offset, length)) {
                DeserializationContext context = (DeserializationContext) parser.objectReadContext();
                for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                    if (token != JsonToken.START_OBJECT) {
                        throw new KubernetesClientException(source + " sent a watch event that is not a JSON object, at "
                                + parser.currentTokenLocation().offsetDescription());
                    }
                    decoded.add(event(parser, context));
                }
            }
        }

        /** The event whose opening brace is the parser's current token; leaves the parser on its closing brace. */
        private WatchEvent<T> event(JsonParser parser, DeserializationContext context) {
            String eventType = null;
            WatchEvent<T> event = null;
            JsonNode objectFirst = null;
            for (String name = parser.nextName(); name != null; name = parser.nextName()) {
                JsonToken value = parser.nextToken();
                if (name.equals("type")) {
                    eventType = value == JsonToken.VALUE_NULL ? null : parser.getValueAsString();
                } else if (name.equals("object") && value != JsonToken.VALUE_NULL) {
                    if (eventType != null) {
                        event = event(eventType, parser, context);
                    } else {
                        objectFirst = parser.readValueAsTree();
                    }
                } else {
                    parser.skipChildren();
                }
            }
            if (event != null) {
                return event;
            }
            if (objectFirst == null || objectFirst.isNull()) {
                throw new KubernetesClientException(source + " sent a " + (eventType == null ? "" : eventType)
                        + " watch event without object");
            }
            // the object came before the type: replayed from its tree now that the type is known
            try (JsonParser tree = objects.treeAsTokens(objectFirst)) {
                tree.nextToken();
                return event(eventType == null ? "" : eventType, tree, (DeserializationContext) tree.objectReadContext());
            }
        }

        /** The event of {@code eventType} whose object starts at the parser's current token. */
        private WatchEvent<T> event(String eventType, JsonParser parser, DeserializationContext context) {
            try {
                return switch (eventType) {
                    case "ADDED" -> new WatchEvent.Added<>(object(parser, context));
                    case "MODIFIED" -> new WatchEvent.Modified<>(object(parser, context));
                    case "DELETED" -> new WatchEvent.Deleted<>(object(parser, context));
                    case "BOOKMARK" -> bookmark(parser.readValueAsTree());
                    case "ERROR" -> new WatchEvent.Error<>(context.readValue(parser, Status.class));
                    default -> throw new KubernetesClientException(source + " sent a watch event of unknown type \""
                            + eventType + "\"");
                };
            } catch (StreamReadException e) {
                throw e;
            } catch (JacksonException e) {
                // Jackson's own message would quote the value (a Secret's data, say): only where, and what kind of error
                throw new KubernetesClientException(source + " sent a " + eventType + " watch event whose object is "
                        + "not a valid " + type.getRawClass().getSimpleName() + path(e) + " (" + e.getClass().getSimpleName()
                        + ")", e);
            }
        }

        @SuppressWarnings("unchecked")
        private T object(JsonParser parser, DeserializationContext context) {
            if (deserializer == null) {
                deserializer = context.findRootValueDeserializer(type);
            }
            return (T) deserializer.deserialize(parser, context);
        }

        /** Where in the object {@code e} happened, as {@code " at spec.containers[0].ports"}; empty at its root. */
        private static String path(JacksonException e) {
            StringBuilder path = new StringBuilder();
            for (JacksonException.Reference reference : e.getPath()) {
                if (reference.getPropertyName() != null) {
                    path.append(path.length() == 0 ? "" : ".").append(reference.getPropertyName());
                } else if (reference.getIndex() >= 0) {
                    path.append('[').append(reference.getIndex()).append(']');
                }
            }
            return path.length() == 0 ? "" : " at " + path;
        }

        private WatchEvent<T> bookmark(JsonNode object) {
            JsonNode metadata = object.path("metadata");
            Map<String, String> annotations = new HashMap<>();
            metadata.path("annotations").properties().forEach(entry -> annotations.put(entry.getKey(),
                    entry.getValue().asString("")));
            return new WatchEvent.Bookmark<>(metadata.path("resourceVersion").asString(""), annotations);
        }
    }
}

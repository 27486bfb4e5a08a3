package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Signal;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;

/**
 * Generated watch streams for {@link WatchDecoding}: valid event lines (Secrets added, modified and
 * deleted, bookmarks, errors) mutated byte by byte and structurally, cut into random chunks, under
 * the default event limit or a small one. Every stream ends, with events and at most one error, and
 * that error is one the decoder documents ({@link KubernetesClientException} or
 * {@link JacksonException}), and no message in its chain (short of Jackson's own databind
 * exception, kept as the cause) quotes the Secret's data.
 *
 * <p>Seeded: {@code -Dwatch.fuzz.seed=N} replays, {@code -Dfuzz.inputs=N} widens (10,000 in the
 * default build, 100,000 with {@code -Pfuzz}).
 */
class WatchDecodingFuzzTest {

    private static final long SEED = Long.getLong("watch.fuzz.seed", 20261128L);
    private static final int INPUTS = Integer.getInteger("fuzz.inputs", 10_000);
    private static final JavaType SECRET = Json.MAPPER.constructType(Secret.class);
    /** Runs of the Secret's data ({@code aHVudGVyMg==}, {@code plain}) no message may quote. */
    private static final List<String> SECRETS = List.of("aHVudG", "HVudGV", "VudGVy", "dGVyMg", "plain");
    private static final byte[] STRUCTURE = "{}[]\":,\\\n\r 0-etnfu".getBytes(StandardCharsets.US_ASCII);

    @Test
    void everyGeneratedStreamEndsWithItsEventsAndAtMostOneDocumentedError() {
        List<String> lines = validLines();
        Random random = new Random(SEED);
        AtomicInteger current = new AtomicInteger();
        int[] failed = new int[1];

        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            for (int i = 0; i < INPUTS; i++) {
                current.set(i);
                StringBuilder text = new StringBuilder();
                for (int count = 1 + random.nextInt(3); count > 0; count--) {
                    text.append(lines.get(random.nextInt(lines.size())));
                }
                byte[] stream = mutate(random, text.toString().getBytes(StandardCharsets.UTF_8));
                int limit = random.nextInt(4) == 0 ? 64 + random.nextInt(2048) : 16 * 1024 * 1024;
                if (check(stream, limit, chunkSizes(random, stream.length), i)) {
                    failed[0]++;
                }
            }
        }, () -> "stream " + current.get() + " of seed " + SEED + " did not end");

        assertThat(failed[0]).as("streams that failed").isBetween(INPUTS / 4, INPUTS - INPUTS / 20);
    }

    /** Whether the stream failed (as documented); throws on anything undocumented. */
    private static boolean check(byte[] stream, int limit, int[] sizes, int index) {
        List<DataBuffer> chunks = new ArrayList<>();
        int offset = 0;
        for (int size : sizes) {
            chunks.add(DefaultDataBufferFactory.sharedInstance.wrap(Arrays.copyOfRange(stream, offset, offset + size)));
            offset += size;
        }
        List<Signal<WatchEvent<Secret>>> signals;
        try {
            signals = WatchDecoding.<Secret>decode(Flux.fromIterable(chunks), SECRET, "fuzz", limit).materialize()
                    .collectList().block();
        } catch (RuntimeException e) {
            throw new AssertionError(describe(stream, limit, sizes, index) + " threw from the stream itself: " + e, e);
        }
        Signal<WatchEvent<Secret>> last = signals.get(signals.size() - 1);
        for (Signal<WatchEvent<Secret>> signal : signals.subList(0, signals.size() - 1)) {
            if (!signal.isOnNext() || signal.get() == null) {
                throw new AssertionError(describe(stream, limit, sizes, index) + " gave " + signal + " before its end");
            }
        }
        if (!last.isOnComplete() && !last.isOnError()) {
            throw new AssertionError(describe(stream, limit, sizes, index) + " ended with " + last);
        }
        if (last.isOnError()) {
            Throwable error = last.getThrowable();
            if (!(error instanceof KubernetesClientException) && !(error instanceof JacksonException)) {
                throw new AssertionError(describe(stream, limit, sizes, index) + " failed with an undocumented " + error,
                        error);
            }
            // Jackson's databind exception, kept as the cause, quotes the value it could not bind; the
            // message the decoder makes of it, and every parse error (Json.MAPPER quotes no input), do not
            for (Throwable cause = error; cause != null && !(cause instanceof tools.jackson.databind.DatabindException);
                    cause = cause.getCause() == cause ? null : cause.getCause()) {
                String message = String.valueOf(cause.getMessage());
                for (String secret : SECRETS) {
                    if (message.contains(secret)) {
                        throw new AssertionError(describe(stream, limit, sizes, index) + " failed with a message that "
                                + "quotes the Secret's data: " + message, error);
                    }
                }
            }
            return true;
        }
        return false;
    }

    private static String describe(byte[] stream, int limit, int[] sizes, int index) {
        return "stream " + index + " of seed " + SEED + " (limit " + limit + ", chunks " + Arrays.toString(sizes) + "): "
                + new String(stream, StandardCharsets.UTF_8);
    }

    private static List<String> validLines() {
        List<String> lines = new ArrayList<>();
        for (String type : List.of("ADDED", "MODIFIED", "DELETED")) {
            Secret secret = new SecretBuilder().withNewMetadata().withName("s-" + type).withNamespace("shop")
                    .withResourceVersion("42").addToLabels("app", "web").addToAnnotations("note", "ünïcödé \"quoted\"")
                    .endMetadata().withType("Opaque").addToData("password", "aHVudGVyMg==")
                    .addToStringData("token", "plain").withImmutable(false).build();
            lines.add("{\"type\":\"" + type + "\",\"object\":" + Json.MAPPER.writeValueAsString(secret) + "}\n");
        }
        lines.add("{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":"
                + "{\"resourceVersion\":\"43\",\"annotations\":{\"k8s.io/initial-events-end\":\"true\"}}}}\n");
        lines.add("{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"message\":\"too old resource version: 1 (42)\",\"reason\":\"Expired\",\"code\":410}}\n");
        lines.add("{\"object\":{\"kind\":\"Secret\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"late-type\"}},"
                + "\"type\":\"ADDED\"}\n");
        lines.add("\n");
        return lines;
    }

    /** Chunk sizes that add up to {@code length}: one chunk, a run of single bytes, or random cuts. */
    private static int[] chunkSizes(Random random, int length) {
        if (length == 0) {
            return new int[0];
        }
        return switch (random.nextInt(4)) {
            case 0 -> new int[] {length};
            case 1 -> {
                // single bytes around one random point, the rest in two chunks (every byte alone would be slow)
                int start = random.nextInt(length);
                int count = Math.min(length - start, 64);
                int[] sizes = new int[count + 2];
                Arrays.fill(sizes, 1);
                sizes[0] = start;
                sizes[sizes.length - 1] = length - start - count;
                yield Arrays.stream(sizes).filter(size -> size > 0).toArray();
            }
            default -> {
                List<Integer> sizes = new ArrayList<>();
                for (int left = length; left > 0; ) {
                    int size = Math.min(left, 1 + random.nextInt(Math.max(1, length / 3)));
                    sizes.add(size);
                    left -= size;
                }
                yield sizes.stream().mapToInt(Integer::intValue).toArray();
            }
        };
    }

    /** {@code bytes} with zero to four changes: bytes set or replaced by JSON structure, cut, inserted, removed, repeated. */
    private static byte[] mutate(Random random, byte[] bytes) {
        for (int changes = random.nextInt(5); changes > 0 && bytes.length > 0; changes--) {
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(6)) {
                case 0 -> bytes[at] = (byte) random.nextInt();
                case 1 -> bytes[at] = STRUCTURE[random.nextInt(STRUCTURE.length)];
                case 2 -> bytes = Arrays.copyOf(bytes, at);
                case 3 -> bytes = splice(bytes, at, at, new byte[] {STRUCTURE[random.nextInt(STRUCTURE.length)],
                    (byte) random.nextInt()});
                case 4 -> bytes = splice(bytes, at, Math.min(bytes.length, at + 1 + random.nextInt(24)), new byte[0]);
                default -> bytes = splice(bytes, at, at, Arrays.copyOfRange(bytes, at,
                        Math.min(bytes.length, at + 1 + random.nextInt(64))));
            }
        }
        return bytes;
    }

    private static byte[] splice(byte[] bytes, int from, int to, byte[] inserted) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, from);
        out.writeBytes(inserted);
        out.write(bytes, to, bytes.length - to);
        return out.toByteArray();
    }
}

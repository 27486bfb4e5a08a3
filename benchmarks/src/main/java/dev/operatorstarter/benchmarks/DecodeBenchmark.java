package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesJson;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.ObjectReader;

/**
 * Decoding 1,000 watch events (ConfigMaps of about 1 KiB) delivered in 16 KiB network chunks: our
 * watch decoder (events split across chunks, each object typed on arrival) against a plain
 * Jackson parse of the same bytes, all at hand, straight into typed objects (the practical ceiling).
 *
 * <p>Ours goes through the public API, {@code RestClient}'s {@code Request.watch}, with no network:
 * an interceptor ({@link ClientOptions#interceptors()}) answers the watch with the chunks from
 * memory, so the figure is the decoder's plus one request's set-up per 1,000 events.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecodeBenchmark {

    static final int EVENTS = 1_000;
    private static final int CHUNK = 16 * 1024;

    /** A watch event as plain Jackson reads it. */
    public record PlainEvent(String type, ConfigMap object) {
    }

    private byte[] stream;
    private JavaType configMap;
    private ObjectReader plain;
    private RestClient client;

    @Setup
    public void setUp() {
        stream = watchStream(EVENTS);
        List<byte[]> chunks = new ArrayList<>();
        for (int offset = 0; offset < stream.length; offset += CHUNK) {
            chunks.add(Arrays.copyOfRange(stream, offset, Math.min(stream.length, offset + CHUNK)));
        }
        configMap = KubernetesJson.mapper().constructType(ConfigMap.class);
        plain = KubernetesJson.mapper().readerFor(PlainEvent.class);
        client = RestClient.create(new ClientConfig(URI.create("http://decode.invalid"), TlsSettings.defaults(),
                Credentials.none(), null, "bench", "DecodeBenchmark"),
                ClientOptions.builder().interceptor(answering(chunks)).build());
    }

    @TearDown
    public void tearDown() {
        client.close();
    }

    /** An interceptor that answers every request with {@code chunks} as the body, sending nothing. */
    static ExchangeFilterFunction answering(List<byte[]> chunks) {
        return (request, next) -> Mono.just(ClientResponse.create(HttpStatus.OK)
                .header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE)
                .body(Flux.fromIterable(chunks).map(DefaultDataBufferFactory.sharedInstance::wrap))
                .build());
    }

    /** {@code count} ADDED events of distinct ConfigMaps, one JSON object per line, as the API server sends them. */
    static byte[] watchStream(int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < count; i++) {
            ConfigMap object = Dataset.configMap(i);
            object.getMetadata().setNamespace("bench");
            object.getMetadata().setResourceVersion(String.valueOf(1000 + i));
            object.getMetadata().setUid("00000000-0000-0000-0000-" + String.format("%012d", i));
            object.getMetadata().setCreationTimestamp("2026-11-23T08:00:00Z");
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("type", "ADDED"); // first, as the API server writes it
            event.put("object", object);
            out.writeBytes(KubernetesJson.mapper().writeValueAsBytes(event));
            out.write('\n');
        }
        return out.toByteArray();
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long ours() {
        return client.get().groupVersion("", "v1").namespace("bench").resource("configmaps").<ConfigMap>watch(configMap)
                .filter(WatchEvent.Added.class::isInstance).count().block();
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long plainJackson() {
        long count = 0;
        try (MappingIterator<PlainEvent> events = plain.readValues(stream)) {
            while (events.hasNextValue()) {
                if (events.nextValue().object() != null) {
                    count++;
                }
            }
        }
        return count;
    }
}

package dev.operatorstarter.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ReaderMetrics} on Micrometer: {@code reader_requests_total{resource, verb, source}}.
 * The counters are kept, since a reader reads often and their label values are bounded (the
 * resources an operator reads, two verbs, two sources). Needs {@code micrometer-core} (optional).
 */
final class MicrometerReaderMetrics implements ReaderMetrics {

    private record Key(String resource, String verb, ObjectReader.Source source) {
    }

    private final MeterRegistry registry;
    private final Map<Key, Counter> counters = new ConcurrentHashMap<>();

    MicrometerReaderMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void read(String resource, String verb, ObjectReader.Source source) {
        counters.computeIfAbsent(new Key(resource, verb, source), key -> Counter.builder("reader.requests")
                .description("Reads through the operator's reader, by where they were answered: cache or api.")
                .tag("resource", key.resource()).tag("verb", key.verb()).tag("source", key.source().label())
                .register(registry)).increment();
    }
}

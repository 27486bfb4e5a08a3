package dev.operatorstarter.cache;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * Receives where an {@link ObjectReader}'s reads were answered from, for metrics.
 * Implementations must be fast, thread-safe and must not throw. {@link #micrometer} implements
 * it on Micrometer.
 */
public interface ReaderMetrics {

    /** Records nothing. */
    ReaderMetrics NONE = new ReaderMetrics() {
    };

    /**
     * {@link ReaderMetrics} on Micrometer. Prometheus name: {@code reader_requests_total} with
     * {@code resource} (resource[.group]), {@code verb} ({@code get} or {@code list}) and
     * {@code source} ({@code cache} or {@code api}). Needs {@code micrometer-core} on the class
     * path (an optional dependency of the runtime) only when called.
     */
    static ReaderMetrics micrometer(MeterRegistry registry) {
        return new MicrometerReaderMetrics(registry);
    }

    /** One read of {@code resource} (resource[.group]) by {@code verb} was answered from {@code source}. */
    default void read(String resource, String verb, ObjectReader.Source source) {
    }
}

package dev.operatorstarter.cache;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;

/**
 * Receives what reflectors and informers do, for metrics. {@code name} is the informer's name
 * (resource[.group], plus the namespace when it watches one), one per informer, so label values
 * stay bounded. Implementations must be fast, thread-safe and must not throw.
 * {@link #micrometer} implements it on Micrometer.
 */
public interface ReflectorMetrics {

    /** Records nothing. */
    ReflectorMetrics NONE = new ReflectorMetrics() {
    };

    /**
     * {@link ReflectorMetrics} on Micrometer. Prometheus names: {@code reflector_list_duration_seconds},
     * {@code reflector_lists_total}, {@code reflector_watches_total}, {@code reflector_short_watches_total},
     * {@code reflector_watch_duration_seconds}, {@code reflector_last_resource_version},
     * {@code watch_events_total{type}}, {@code informer_store_size} and
     * {@code informer_processing_errors_total{stage}}, each with the informer's {@code name}. A
     * stopped informer's meters are removed.
     * Needs {@code micrometer-core} on the class path (an optional dependency of the runtime) only
     * when called: the rest of this interface works without it.
     */
    static ReflectorMetrics micrometer(MeterRegistry registry) {
        return new MicrometerReflectorMetrics(registry);
    }

    /** A list (all pages) or streaming list completed. */
    default void listed(String name, Duration duration, int items) {
    }

    /** A watch request was sent. */
    default void watchStarted(String name) {
    }

    /** A watch ended; {@code shortWatch} when it ended at once without events. */
    default void watchEnded(String name, Duration duration, boolean shortWatch) {
    }

    /** One watch event arrived; {@code type} is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR. */
    default void watchEvent(String name, String type) {
    }

    /** The reflector reached {@code resourceVersion}. */
    default void resourceVersion(String name, String resourceVersion) {
    }

    /** An informer's store exists; {@code size} reads its current number of objects. */
    default void storeCreated(String name, java.util.function.IntSupplier size) {
    }

    /**
     * The informer skipped one object because a step of its own failed on it: {@code stage} is
     * {@code index} (an index function threw; the cache keeps its previous version of the object),
     * {@code transform} (the transform threw; the object does not reach the cache) or
     * {@code process} (an unexpected failure on one key's deltas).
     */
    default void processingError(String name, String stage) {
    }

    /** The informer {@code name} has stopped: metrics bound to it may be removed. */
    default void stopped(String name) {
    }
}

package dev.operatorstarter.cache;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

/**
 * {@link ReflectorMetrics} on Micrometer. Prometheus names: {@code reflector_list_duration_seconds},
 * {@code reflector_lists_total}, {@code reflector_watches_total}, {@code reflector_short_watches_total},
 * {@code reflector_watch_duration_seconds}, {@code reflector_last_resource_version},
 * {@code watch_events_total{type}}, {@code informer_store_size} and
 * {@code informer_processing_errors_total{stage}}, each with the informer's
 * {@code name}. A stopped informer's meters are removed. Needs {@code micrometer-core} (optional).
 */
final class MicrometerReflectorMetrics implements ReflectorMetrics {

    private static final String NAME = "name";

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> versions = new ConcurrentHashMap<>();

    MicrometerReflectorMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void listed(String name, Duration duration, int items) {
        Timer.builder("reflector.list.duration").description("How long a list (all pages) took.")
                .tag(NAME, name).register(registry).record(duration);
        Counter.builder("reflector.lists").description("Lists (initial and relists).")
                .tag(NAME, name).register(registry).increment();
    }

    /** Also registers the watch duration and short-watch meters at zero, so they exist before the first watch ends. */
    @Override
    public void watchStarted(String name) {
        Counter.builder("reflector.watches").description("Watch requests sent.")
                .tag(NAME, name).register(registry).increment();
        watchDuration(name);
        shortWatches(name);
    }

    @Override
    public void watchEnded(String name, Duration duration, boolean shortWatch) {
        watchDuration(name).record(duration);
        if (shortWatch) {
            shortWatches(name).increment();
        }
    }

    private Timer watchDuration(String name) {
        return Timer.builder("reflector.watch.duration").description("How long watches stayed open.")
                .tag(NAME, name).register(registry);
    }

    private Counter shortWatches(String name) {
        return Counter.builder("reflector.short.watches").description("Watches that closed at once without events.")
                .tag(NAME, name).register(registry);
    }

    @Override
    public void watchEvent(String name, String type) {
        Counter.builder("watch.events").description("Watch events received, by type.")
                .tag(NAME, name).tag("type", type).register(registry).increment();
    }

    @Override
    public void resourceVersion(String name, String resourceVersion) {
        long value;
        try {
            value = Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return; // resourceVersions are opaque; only numeric ones (etcd's) make a gauge
        }
        versions.computeIfAbsent(name, key -> {
            AtomicLong holder = new AtomicLong();
            Gauge.builder("reflector.last.resource.version", holder, AtomicLong::doubleValue).strongReference(true)
                    .description("The last resourceVersion the reflector reached.").tag(NAME, key).register(registry);
            return holder;
        }).set(value);
    }

    @Override
    public void storeCreated(String name, IntSupplier size) {
        // Strong reference: the supplier is a method reference nothing else holds (Micrometer's
        // default weak reference would let it be collected and the gauge read NaN).
        registry.find("informer.store.size").tag(NAME, name).meters().forEach(registry::remove);
        Gauge.builder("informer.store.size", size, supplier -> supplier.getAsInt()).strongReference(true)
                .description("Objects in the informer's cache.").tag(NAME, name).register(registry);
    }

    @Override
    public void processingError(String name, String stage) {
        Counter.builder("informer.processing.errors")
                .description("Objects the informer skipped because its own step failed on them, by stage.")
                .tag(NAME, name).tag("stage", stage).register(registry).increment();
    }

    @Override
    public void stopped(String name) {
        versions.remove(name);
        List<Meter> meters = registry.getMeters().stream()
                .filter(meter -> name.equals(meter.getId().getTag(NAME)))
                .filter(meter -> meter.getId().getName().startsWith("reflector.")
                        || meter.getId().getName().equals("watch.events")
                        || meter.getId().getName().startsWith("informer."))
                .toList();
        meters.forEach(registry::remove);
    }
}

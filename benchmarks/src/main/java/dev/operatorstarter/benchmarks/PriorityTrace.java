package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * {@link PriorityRestart}'s trace, when the system property {@code priority.trace} names a file, in
 * nanoseconds from the start, one line each: {@code S} the JVM's uptime in ms at the start (to match
 * a GC or JIT log), {@code R start end} per reconcile, {@code U name emitted handled started
 * reflected} per update (its emission, its arrival in a handler of the informer, the start of the
 * reconcile that saw it, its arrival in the reflector), {@code M what at} for a moment such as the
 * return of the controller's start. The controller-runtime program writes the {@code R} and
 * {@code U} lines (without the reflector's field) when {@code PRIORITY_TRACE} names a file. Records
 * nothing otherwise. For finding out where a fresh change's time goes, not for the suite's figures.
 */
final class PriorityTrace {

    private final @Nullable Path path;
    private volatile long start;
    private long uptimeAtStart;
    private final List<long[]> reconciles = new ArrayList<>();
    private final Map<String, Long> handled = new ConcurrentHashMap<>();
    private final Map<String, Long> reflected = new ConcurrentHashMap<>();
    private final List<String> updates = new ArrayList<>();

    private PriorityTrace(@Nullable Path path) {
        this.path = path;
    }

    static PriorityTrace fromProperty() {
        String path = System.getProperty("priority.trace");
        return new PriorityTrace(path == null ? null : Path.of(path));
    }

    private boolean on() {
        return path != null;
    }

    /** Notes when each update of a listed object reaches a handler of {@code informer}. */
    void watch(SharedIndexInformer<ConfigMap> informer) {
        if (!on()) {
            return;
        }
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object, boolean isInInitialList) {
            }

            @Override
            public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
                handled.put(newObject.getMetadata().getName(), System.nanoTime() - start);
            }

            @Override
            public void onDelete(ConfigMap object, boolean finalStateUnknown) {
            }
        });
    }

    /** Notes when the reflector takes each update of a listed object (a transform, set only when tracing). */
    void reflected(InformerOptions.Builder options) {
        if (on()) {
            options.transform(object -> {
                if (!"1".equals(object.getMetadata().getResourceVersion())) {
                    reflected.put(object.getMetadata().getName(), System.nanoTime() - start);
                }
                return object;
            });
        }
    }

    void begin(long startNanos) {
        start = startNanos;
        uptimeAtStart = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
    }

    /** Notes that {@code what} happened at {@code nanos} (as a line {@code M what nanos-from-start}). */
    synchronized void mark(String what, long nanos) {
        if (on()) {
            updates.add("M " + what + " " + (nanos - start)); // no String.format: its locale data loads slowly
        }
    }

    synchronized void reconcile(long started, long ended) {
        if (on()) {
            reconciles.add(new long[] {started - start, ended - start});
        }
    }

    synchronized void update(String name, long emitted, long started) {
        if (on()) {
            updates.add("U " + name + " " + (emitted - start) + " " + handled.getOrDefault(name, 0L) + " "
                    + (started - start) + " " + reflected.getOrDefault(name, 0L));
        }
    }

    synchronized void write() {
        if (!on()) {
            return;
        }
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(Objects.requireNonNull(path)))) {
            out.println("S " + uptimeAtStart);
            reconciles.forEach(r -> out.println("R " + r[0] + " " + r[1]));
            updates.forEach(out::println);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

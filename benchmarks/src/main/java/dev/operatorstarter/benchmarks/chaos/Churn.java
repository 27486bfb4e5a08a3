package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Bounded random writes to the ConfigMaps of a pool of keys, at a fixed rate, straight to the
 * API server (not through a fault proxy): a missing key is created; a present one is updated (a
 * merge patch), or deleted one time in four. With these odds about four keys in five exist at
 * any moment. Writes that fail (the server restarting) are skipped; the next write to the key
 * learns its state from the server's answer (409 on create, 404 on update or delete).
 *
 * <p>Remembers when each successful create or update started and the resourceVersion it made,
 * so a trial can name the first change made after its fault ended.
 */
final class Churn implements AutoCloseable {

    private static final int REMEMBERED = 4096;

    private final ResourceClient<ConfigMap> configMaps;
    private final int keys;
    private final Duration interval;
    private final Random random;
    private final Set<String> present = new HashSet<>();
    private final Deque<long[]> writes = new ArrayDeque<>(); // {startedMillis, resourceVersion}
    private final ReentrantLock writing = new ReentrantLock();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "churn");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean paused = true;
    private long counter;

    /**
     * @param configMaps where to write, with a deadline on each request
     * @param keys the pool's size: names {@code key-00}, {@code key-01}...
     * @param writesPerSecond the rate
     * @param seed the random choices' seed
     */
    Churn(ResourceClient<ConfigMap> configMaps, int keys, int writesPerSecond, long seed) {
        this.configMaps = configMaps;
        this.keys = keys;
        this.interval = Duration.ofNanos(1_000_000_000L / writesPerSecond);
        this.random = new Random(seed);
    }

    /** Starts writing. */
    void start() {
        paused = false;
        thread.scheduleAtFixedRate(this::writeOne, 0, interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Stops writing; returns once the write in flight, if any, has ended. */
    void pause() {
        paused = true;
        writing.lock();
        writing.unlock();
    }

    /** Writes again after {@link #pause()}. */
    void resume() {
        paused = false;
    }

    /**
     * The resourceVersion made by the first successful create or update that started at or after
     * {@code millis}, if one has succeeded yet.
     */
    synchronized OptionalLong firstWriteStartedAtOrAfter(long millis) {
        for (long[] write : writes) {
            if (write[0] >= millis) {
                return OptionalLong.of(write[1]);
            }
        }
        return OptionalLong.empty();
    }

    private void writeOne() {
        if (paused) {
            return;
        }
        writing.lock();
        try {
            if (paused) {
                return;
            }
            String name = String.format("key-%02d", random.nextInt(keys));
            long started = System.currentTimeMillis();
            String value = Long.toString(++counter);
            if (!present.contains(name)) {
                create(name, value, started);
            } else if (random.nextInt(4) == 0) {
                delete(name);
            } else {
                update(name, value, started);
            }
        } finally {
            writing.unlock();
        }
    }

    private void create(String name, String value, long started) {
        try {
            ConfigMap created = configMaps.create(new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
                    .withData(Map.of("value", value)).build());
            present.add(name);
            remember(started, created);
        } catch (RuntimeException e) {
            if (ApiErrors.isAlreadyExists(e)) {
                present.add(name);
            }
        }
    }

    private void update(String name, String value, long started) {
        try {
            remember(started, configMaps.patch(name, PatchType.MERGE, Map.of("data", Map.of("value", value))));
        } catch (RuntimeException e) {
            if (ApiErrors.isNotFound(e)) {
                present.remove(name);
            }
        }
    }

    private void delete(String name) {
        try {
            configMaps.delete(name);
            present.remove(name);
        } catch (RuntimeException e) {
            if (ApiErrors.isNotFound(e)) {
                present.remove(name);
            }
        }
    }

    private synchronized void remember(long started, ConfigMap written) {
        writes.addLast(new long[] {started, Long.parseLong(written.getMetadata().getResourceVersion())});
        if (writes.size() > REMEMBERED) {
            writes.removeFirst();
        }
    }

    @Override
    public void close() {
        paused = true;
        thread.shutdownNow();
    }
}

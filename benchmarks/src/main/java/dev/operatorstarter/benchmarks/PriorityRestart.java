package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ListerWatcher;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * A controller's restart with {@value #LISTED} objects, with the priority queue (the default) and
 * in FIFO order ({@code ControllerOptions.priorityQueue(false)}). The informer is fed from memory,
 * so that only the work queue's order differs between runs (and between this and another
 * framework's run of the same scenario). Scenario, for matching:
 * <ul>
 *   <li>{@value #LISTED} ConfigMaps in the initial list; {@value #WORKERS} workers; each reconcile
 *       sleeps {@value #RECONCILE_MILLIS} ms (an I/O-bound reconcile). The clock starts when the
 *       controller is started, with the informer's cache already synced.</li>
 *   <li><b>latency</b>: from the start, one update every {@value #UPDATE_EVERY_MILLIS} ms of a
 *       random listed object not yet reconciled (a new resourceVersion); each update's latency runs
 *       from its watch event being emitted to the start of that object's next reconcile; p50, p99
 *       and max over the updates made until the initial list is reconciled.</li>
 *   <li><b>saturation</b>: from the start, {@value #FRESH_PER_MILLI} new objects every millisecond
 *       ({@value #FRESH_PER_MILLI}000/s, more than the workers' about 1,800/s); the time until
 *       the last object of the initial list is reconciled, or how many are left after
 *       {@value #SATURATION_LIMIT_SECONDS} s.</li>
 * </ul>
 * Run: {@code java -cp <benchmarks' classpath> dev.operatorstarter.benchmarks.PriorityRestart}
 * (see docs/performance/priority-queue.md).
 */
public final class PriorityRestart {

    static final int LISTED = 10_000;
    static final int WORKERS = 2;
    static final int RECONCILE_MILLIS = 1;
    static final int UPDATE_EVERY_MILLIS = 20;
    static final int FRESH_PER_MILLI = 3;
    static final int SATURATION_LIMIT_SECONDS = 120;

    /** One scenario's figures: latencies in ms (empty for saturation), and when the initial list was done. */
    record Result(String variant, String scenario, List<Double> latencies, double listDoneSeconds, int listLeft) {
        double percentile(double p) {
            if (latencies.isEmpty()) {
                return Double.NaN;
            }
            List<Double> sorted = new ArrayList<>(latencies);
            Collections.sort(sorted);
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1));
        }
    }

    /** An informer's server, in memory: lists {@code listed} and streams what {@link #emit} gives it. */
    private static final class MemoryServer implements ListerWatcher<ConfigMap> {
        private final List<ConfigMap> listed;
        private final Sinks.Many<WatchEvent<ConfigMap>> events = Sinks.many().unicast().onBackpressureBuffer();
        private final AtomicLong version = new AtomicLong(1);

        MemoryServer(List<ConfigMap> listed) {
            this.listed = listed;
        }

        @Override
        public ResourceList<ConfigMap> list(ListOptions options) {
            return new ResourceList<>("v1", "List", new ListMetaBuilder().withResourceVersion("1").withContinue("")
                    .build(), listed);
        }

        @Override
        public Flux<WatchEvent<ConfigMap>> watch(ListOptions options) {
            return events.asFlux();
        }

        /** The resourceVersion of the next event (one thread emits). */
        long nextVersion() {
            return version.get() + 1;
        }

        /** Emits an added or modified {@code name} at the next resourceVersion. */
        void emit(boolean added, String name) {
            ConfigMap object = configMap(name, Long.toString(version.incrementAndGet()));
            events.emitNext(added ? new WatchEvent.Added<>(object) : new WatchEvent.Modified<>(object),
                    Sinks.EmitFailureHandler.FAIL_FAST);
        }
    }

    private PriorityRestart() {
    }

    static ConfigMap configMap(String name, String version) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("bench").withName(name)
                .withResourceVersion(version).endMetadata().build();
    }

    public static void main(String[] args) throws Exception {
        System.out.printf("PriorityRestart: %d listed ConfigMaps, %d workers, reconcile %d ms (sleep); latency: an update"
                + " every %d ms; saturation: %d new objects per ms, limit %d s%n", LISTED, WORKERS, RECONCILE_MILLIS,
                UPDATE_EVERY_MILLIS, FRESH_PER_MILLI, SATURATION_LIMIT_SECONDS);
        List<Result> results = new ArrayList<>();
        for (boolean priorityQueue : new boolean[] {true, false}) {
            results.add(run(priorityQueue, false));
            results.add(run(priorityQueue, true));
        }
        System.out.println("| queue | scenario | fresh p50 | fresh p99 | fresh max | updates | initial list reconciled |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Result r : results) {
            System.out.printf("| %s | %s | %s | %s | %s | %s | %s |%n", r.variant(), r.scenario(), ms(r.percentile(0.5)),
                    ms(r.percentile(0.99)), ms(r.percentile(1.0)), r.latencies().isEmpty() ? "" : r.latencies().size(),
                    r.listLeft() == 0 ? String.format("%.1f s", r.listDoneSeconds())
                            : String.format("not within %d s: %,d of %,d left", SATURATION_LIMIT_SECONDS, r.listLeft(),
                                    LISTED));
        }
    }

    private static long cachedVersion(SharedIndexInformer<ConfigMap> informer, String key) {
        return informer.indexer().get(key).map(object -> Long.parseLong(object.getMetadata().getResourceVersion()))
                .orElse(0L);
    }

    private static String ms(double millis) {
        return Double.isNaN(millis) ? "" : String.format("%.0f ms", millis);
    }

    static Result run(boolean priorityQueue, boolean saturation) throws Exception {
        List<ConfigMap> listed = new ArrayList<>();
        for (int i = 0; i < LISTED; i++) {
            listed.add(configMap("listed-" + i, "1"));
        }
        MemoryServer server = new MemoryServer(listed);
        SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps", server, ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        while (!informer.hasSynced()) {
            Thread.sleep(10);
        }
        Set<String> listLeft = ConcurrentHashMap.newKeySet();
        listed.forEach(object -> listLeft.add(object.getMetadata().getName()));
        Map<String, long[]> updated = new ConcurrentHashMap<>(); // name -> {emitted at, resourceVersion}
        List<Double> latencies = new CopyOnWriteArrayList<>();
        AtomicLong listDoneAt = new AtomicLong();
        Controller<ConfigMap> controller = Controller.builder(ControllerOptions.builder("restart").workers(WORKERS)
                .priorityQueue(priorityQueue).build(), ResourceType.of(ConfigMap.class), informer).build(request -> {
                    long now = System.nanoTime();
                    long[] update = updated.get(request.name());
                    if (update != null && cachedVersion(informer, request.key()) >= update[1]
                            && updated.remove(request.name(), update)) {
                        latencies.add((now - update[0]) / 1e6); // the first reconcile that sees the update
                    }
                    Thread.sleep(RECONCILE_MILLIS);
                    if (listLeft.remove(request.name()) && listLeft.isEmpty()) {
                        listDoneAt.set(System.nanoTime());
                    }
                    return ReconcileResult.done();
                });
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        controller.start();
        Random random = new Random(7);
        if (saturation) {
            AtomicLong fresh = new AtomicLong();
            load.scheduleAtFixedRate(() -> {
                for (int i = 0; i < FRESH_PER_MILLI; i++) {
                    server.emit(true, "fresh-" + fresh.incrementAndGet());
                }
            }, 0, 1, TimeUnit.MILLISECONDS);
        } else {
            load.scheduleAtFixedRate(() -> {
                List<String> candidates = new ArrayList<>(listLeft);
                if (candidates.size() > 1) {
                    String name = candidates.get(random.nextInt(candidates.size()));
                    if (!updated.containsKey(name)) {
                        updated.put(name, new long[] {System.nanoTime(), server.nextVersion()});
                        server.emit(false, name);
                    }
                }
            }, 0, UPDATE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        }
        long limit = start + TimeUnit.SECONDS.toNanos(SATURATION_LIMIT_SECONDS);
        while (!listLeft.isEmpty() && System.nanoTime() < limit) {
            Thread.sleep(20);
        }
        load.shutdownNow();
        controller.stop(Duration.ofSeconds(5));
        informer.stop();
        int left = listLeft.size();
        double doneSeconds = left == 0 ? (listDoneAt.get() - start) / 1e9 : Double.NaN;
        return new Result(priorityQueue ? "ours, priority" : "ours, FIFO", saturation ? "saturation" : "latency",
                saturation ? List.of() : List.copyOf(latencies), doneSeconds, left);
    }
}

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
import org.jspecify.annotations.Nullable;
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
 *   <li><b>latency</b>: from the start (the first one period in, while the controller starts and
 *       waits for its handler's initial list), one update every {@value #UPDATE_EVERY_MILLIS} ms of a
 *       random listed object not yet reconciled (a new resourceVersion); each update's latency runs
 *       from its watch event being emitted to the start of that object's next reconcile; p50, p99
 *       and max over the updates made until the initial list is reconciled, the p99 of those made
 *       once the first reconcile had started, and when that was.</li>
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

    /** JVM options of {@link PrioritySection}'s forks, as the scenario is run by hand. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx1g");

    /**
     * The JVM option of {@link PrioritySection}'s extra run: the C1 compiler only, so that no C2
     * compilation takes one of the two cores from the informer's and the workers' threads.
     */
    static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    /**
     * One scenario's figures: the fresh changes' latency percentiles in ms (NaN for saturation), how
     * many there were, the p99 of those emitted once the first reconcile had started, when the first
     * reconcile started (ms from the start), when the initial list was done (NaN if not) and how many
     * of it were left.
     */
    record Result(String variant, String scenario, double p50, double p99, double max, int updates,
            double p99Reconciling, double firstReconcileMillis, double listDoneSeconds, int listLeft) {

        /**
         * From the fresh changes' latencies in nanoseconds (none for saturation), all of them and those
         * emitted once the first reconcile had started.
         */
        static Result of(String variant, String scenario, List<Long> latencyNanos, List<Long> reconcilingNanos,
                double firstReconcileMillis, double listDoneSeconds, int listLeft) {
            return new Result(variant, scenario, millis(latencyNanos, 50), millis(latencyNanos, 99),
                    millis(latencyNanos, 100), latencyNanos.size(), millis(reconcilingNanos, 99), firstReconcileMillis,
                    listDoneSeconds, listLeft);
        }

        private static double millis(List<Long> nanos, double percentile) {
            return nanos.isEmpty() ? Double.NaN : Stats.percentile(nanos, percentile) / 1e6;
        }

        /** This result under another name. */
        Result named(String name) {
            return new Result(name, scenario, p50, p99, max, updates, p99Reconciling, firstReconcileMillis,
                    listDoneSeconds, listLeft);
        }

        /** The RESULT line's fields, as {@link #parse} reads them. */
        String line() {
            return String.join(" ", variant.replace(' ', '_'), scenario, Double.toString(p50), Double.toString(p99),
                    Double.toString(max), Integer.toString(updates), Double.toString(p99Reconciling),
                    Double.toString(firstReconcileMillis), Double.toString(listDoneSeconds), Integer.toString(listLeft));
        }

        static Result parse(String[] fields) {
            return new Result(fields[0].replace('_', ' '), fields[1], Double.parseDouble(fields[2]),
                    Double.parseDouble(fields[3]), Double.parseDouble(fields[4]), Integer.parseInt(fields[5]),
                    Double.parseDouble(fields[6]), Double.parseDouble(fields[7]), Double.parseDouble(fields[8]),
                    Integer.parseInt(fields[9]));
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

    /**
     * Without arguments: the four runs (priority and FIFO, latency and saturation) in this JVM, as a
     * table. With {@code priority|fifo latency|saturation}: that run alone, as a RESULT line for
     * {@link PrioritySection}.
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 2) {
            System.out.println("RESULT " + run(args[0].equals("priority"), args[1].equals("saturation")).line());
            return;
        }
        System.out.printf("PriorityRestart: %d listed ConfigMaps, %d workers, reconcile %d ms (sleep); latency: an update"
                + " every %d ms; saturation: %d new objects per ms, limit %d s%n", LISTED, WORKERS, RECONCILE_MILLIS,
                UPDATE_EVERY_MILLIS, FRESH_PER_MILLI, SATURATION_LIMIT_SECONDS);
        List<Result> results = new ArrayList<>();
        for (boolean priorityQueue : new boolean[] {true, false}) {
            results.add(run(priorityQueue, false));
            results.add(run(priorityQueue, true));
        }
        System.out.print(table(results));
    }

    /** The results as a Markdown table. */
    static String table(List<Result> results) {
        StringBuilder table = new StringBuilder(
                "| queue | scenario | fresh p50 | fresh p99 | fresh max | updates | p99 once reconciling | first reconcile "
                        + "| initial list reconciled |\n|---|---|---|---|---|---|---|---|---|\n");
        for (Result r : results) {
            boolean latency = r.scenario().equals("latency");
            table.append(String.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", r.variant(), r.scenario(),
                    ms(r.p50()), ms(r.p99()), ms(r.max()), latency ? r.updates() : "", ms(r.p99Reconciling()),
                    ms(r.firstReconcileMillis()),
                    r.listLeft() == 0 ? String.format("%.1f s", r.listDoneSeconds())
                            : String.format("not within %d s: %,d of %,d left", SATURATION_LIMIT_SECONDS, r.listLeft(),
                                    LISTED)));
        }
        return table.toString();
    }

    private static long cachedVersion(SharedIndexInformer<ConfigMap> informer, String key) {
        return informer.indexer().get(key).map(object -> Long.parseLong(object.getMetadata().getResourceVersion()))
                .orElse(0L);
    }

    /**
     * A random listed object not reconciled yet, drawn from the fixed list until one is still left
     * (as the controller-runtime program does): no copy of the whole set per update. Null when
     * none is found in {@code 100 · listed} draws: the workers may take the last ones meanwhile.
     */
    static @Nullable String anyLeft(Random random, List<ConfigMap> listed, Set<String> left) {
        for (int draw = 0; draw < 100 * listed.size(); draw++) {
            String name = listed.get(random.nextInt(listed.size())).getMetadata().getName();
            if (left.contains(name)) {
                return name;
            }
        }
        return null;
    }

    private static String ms(double millis) {
        return Double.isNaN(millis) ? "" : millis < 10 ? String.format("%.1f ms", millis) : String.format("%,.0f ms", millis);
    }

    static Result run(boolean priorityQueue, boolean saturation) throws Exception {
        List<ConfigMap> listed = new ArrayList<>();
        for (int i = 0; i < LISTED; i++) {
            listed.add(configMap("listed-" + i, "1"));
        }
        MemoryServer server = new MemoryServer(listed);
        PriorityTrace trace = PriorityTrace.fromProperty();
        InformerOptions.Builder options = InformerOptions.builder()
                .reflector(ReflectorOptions.builder().streamingList(false).build());
        trace.reflected(options);
        SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps", server, ConfigMap.class,
                options.build());
        trace.watch(informer);
        informer.start();
        while (!informer.hasSynced()) {
            Thread.sleep(10);
        }
        Set<String> listLeft = ConcurrentHashMap.newKeySet();
        listed.forEach(object -> listLeft.add(object.getMetadata().getName()));
        Map<String, long[]> updated = new ConcurrentHashMap<>(); // name -> {emitted at, resourceVersion}
        List<Long> latencies = new CopyOnWriteArrayList<>();
        List<Long> reconciling = new CopyOnWriteArrayList<>(); // of the updates emitted once the first reconcile started
        AtomicLong firstReconcileAt = new AtomicLong();
        AtomicLong listDoneAt = new AtomicLong();
        Controller<ConfigMap> controller = Controller.builder(ControllerOptions.builder("restart").workers(WORKERS)
                .priorityQueue(priorityQueue).build(), ResourceType.of(ConfigMap.class), informer).build(request -> {
                    long now = System.nanoTime();
                    firstReconcileAt.compareAndSet(0, now);
                    long[] update = updated.get(request.name());
                    if (update != null && cachedVersion(informer, request.key()) >= update[1]
                            && updated.remove(request.name(), update)) {
                        latencies.add(now - update[0]); // the first reconcile that sees the update
                        if (update[0] - firstReconcileAt.get() >= 0) {
                            reconciling.add(now - update[0]);
                        }
                        trace.update(request.name(), update[0], now);
                    }
                    Thread.sleep(RECONCILE_MILLIS);
                    trace.reconcile(now, System.nanoTime());
                    if (listLeft.remove(request.name()) && listLeft.isEmpty()) {
                        listDoneAt.set(System.nanoTime());
                    }
                    return ReconcileResult.done();
                });
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        long start = System.nanoTime();
        trace.begin(start);
        Random random = new Random(7);
        if (saturation) {
            AtomicLong fresh = new AtomicLong();
            load.scheduleAtFixedRate(() -> {
                for (int i = 0; i < FRESH_PER_MILLI; i++) {
                    server.emit(true, "fresh-" + fresh.incrementAndGet());
                }
            }, 1, 1, TimeUnit.MILLISECONDS);
        } else {
            load.scheduleAtFixedRate(() -> {
                if (listLeft.size() > 1) {
                    String name = anyLeft(random, listed, listLeft);
                    if (name != null && !updated.containsKey(name)) {
                        updated.put(name, new long[] {System.nanoTime(), server.nextVersion()});
                        server.emit(false, name);
                    }
                }
            }, UPDATE_EVERY_MILLIS, UPDATE_EVERY_MILLIS, TimeUnit.MILLISECONDS);
        }
        // The events start with the clock, one period in, while the controller starts (as in the
        // controller-runtime program): the updates made while it waits for its handler's initial
        // list count too.
        controller.start();
        trace.mark("started", System.nanoTime());
        long limit = start + TimeUnit.SECONDS.toNanos(SATURATION_LIMIT_SECONDS);
        while (!listLeft.isEmpty() && System.nanoTime() < limit) {
            Thread.sleep(20);
        }
        load.shutdownNow();
        controller.stop(Duration.ofSeconds(5));
        informer.stop();
        int left = listLeft.size();
        trace.write();
        double doneSeconds = left == 0 ? (listDoneAt.get() - start) / 1e9 : Double.NaN;
        double firstReconcileMillis = firstReconcileAt.get() == 0 ? Double.NaN : (firstReconcileAt.get() - start) / 1e6;
        return Result.of(priorityQueue ? "ours, priority" : "ours, FIFO", saturation ? "saturation" : "latency",
                saturation ? List.of() : List.copyOf(latencies), saturation ? List.of() : List.copyOf(reconciling),
                firstReconcileMillis, doneSeconds, left);
    }
}

package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole benchmark suite, one command ({@code benchmarks/run}, or {@code benchmarks/run -quick}):
 * starts the local API server, creates the objects of the informers' scale curve once, runs every
 * subject's informer at every size in fresh JVMs, the JMH micro benchmarks, the watch-throughput
 * ceiling, the reconcile latency and sharding's scale-out, and writes the tables to
 * {@code benchmarks/target/benchmarks/results.md} (and standard output).
 */
public final class Suite {

    private static final Logger log = LoggerFactory.getLogger(Suite.class);

    /** How much of everything but the informers' ({@link ScaleCurve}): the full run, or a quick check of the same steps. */
    record Size(String name, int watchRuns, int watchEvents, Duration latency, int jmhWarmups, int jmhIterations,
            Duration jmhTime) {
        static final Size FULL = new Size("full", 5, 100_000, Duration.ofSeconds(30), 3, 5, Duration.ofSeconds(2));
        static final Size QUICK = new Size("quick", 1, 20_000, Duration.ofSeconds(8), 1, 2, Duration.ofSeconds(1));
    }

    private Suite() {
    }

    /**
     * @param args see {@link Arguments}: {@code -quick} for the small run; {@code --only=informers,cold,profile,latency,sharding,failover,priority,watch,jmh,startup}
     *     to run some sections (all by default); {@code --configmaps=}, {@code --pods=}, {@code --runs=} for
     *     another scale curve; {@code --sharding-objects=}, {@code --sharding-replicas=} for another scale-out
     */
    public static void main(String[] args) throws Exception {
        Arguments arguments = Arguments.parse(args);
        Size size = arguments.quick() ? Size.QUICK : Size.FULL;
        List<String> sections = arguments.sections();
        long started = System.nanoTime();
        StringBuilder report = new StringBuilder();
        String given = String.join(" ", Arrays.stream(args).map(String::strip).filter(arg -> !arg.isEmpty()
                && !arg.equals("--full")).toList());
        report.append("<!-- results:start (benchmarks/run").append(given.isEmpty() ? "" : " " + given).append(", ")
                .append(LocalDate.now()).append(", commit ").append(commit()).append(") -->\n");
        report.append(machine()).append('\n');
        Path work = Files.createDirectories(Path.of("target", "benchmarks"));
        if (sections.contains("informers") || sections.contains("cold") || sections.contains("latency")
                || sections.contains("profile")
                || sections.contains("sharding") || sections.contains("failover")) {
            try (LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
                    KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(
                            server.connection().kubeconfig(), null))) {
                ScaleCurve curve = arguments.curve();
                Workload profiled = new Workload(Workload.Kind.CONFIGMAPS, arguments.quick() ? 2_000 : 10_000, 1);
                List<Workload> workloads = new ArrayList<>();
                if (sections.contains("informers") || sections.contains("cold")) {
                    workloads.addAll(curve.workloads());
                }
                if (sections.contains("profile") && workloads.stream().noneMatch(workload ->
                        workload.namespace().equals(profiled.namespace()))) {
                    workloads.add(profiled);
                }
                Path kubeconfig = null;
                if (!workloads.isEmpty()) {
                    int objects = workloads.stream().mapToInt(Workload::objects).sum();
                    log.info("creating {} objects: {}", objects, workloads);
                    long creating = System.nanoTime();
                    Dataset.create(admin, workloads);
                    Duration creation = Duration.ofNanos(System.nanoTime() - creating);
                    log.info("created {} objects in {} s", objects, creation.toSeconds());
                    kubeconfig = TokenKubeconfig.write(admin, server.connection(), work.resolve("token-kubeconfig"));
                    if (sections.contains("informers")) {
                        report.append(informers(curve, kubeconfig, objects, creation)).append('\n');
                        report.append(CacheHistogram.section(admin, curve)).append('\n');
                    }
                    if (sections.contains("cold")) {
                        report.append(ColdSync.section(curve, kubeconfig, work)).append('\n');
                    }
                }
                if (sections.contains("profile")) {
                    report.append(SyncReport.section(profiled, kubeconfig, work)).append('\n');
                }
                if (sections.contains("latency")) {
                    report.append(latency(size, admin, server.connection().kubeconfig())).append('\n');
                }
                if (sections.contains("sharding")) {
                    log.info("sharding scale-out: {}", arguments.sharding());
                    report.append(ShardingScaleOut.section(arguments.sharding(), admin, server.connection().kubeconfig(),
                            work)).append('\n');
                }
                if (sections.contains("failover")) {
                    log.info("failover: ours and controller-runtime");
                    report.append(Failover.section(arguments.quick(), admin, server.connection().kubeconfig())).append('\n');
                }
            }
        }
        if (sections.contains("priority")) {
            log.info("the priority queue's restart: ours and controller-runtime");
            report.append(PrioritySection.section(arguments.quick())).append('\n');
        }
        if (sections.contains("watch")) {
            report.append(watchThroughput(size, work)).append('\n');
        }
        if (sections.contains("jmh")) {
            report.append(jmh(size)).append('\n');
        }
        if (sections.contains("startup")) {
            report.append(StartupTime.section(arguments.quick(), arguments.startup(), work)).append('\n');
        }
        report.append(String.format("Whole suite (%s%s): %d s.%n", size.name(),
                sections.equals(Arguments.DEFAULT_SECTIONS) ? "" : ", only " + String.join(",", sections),
                Duration.ofNanos(System.nanoTime() - started).toSeconds()));
        report.append("<!-- results:end -->\n");
        Files.writeString(work.resolve("results.md"), report);
        System.out.println(report);
        System.out.println("written to " + work.resolve("results.md").toAbsolutePath());
        System.exit(0);
    }

    /** The checkout measured: {@code git describe --always --dirty}, or {@code unknown}. */
    private static String commit() {
        try {
            Process git = new ProcessBuilder("git", "describe", "--always", "--dirty").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return git.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
        } catch (IOException e) {
            return "unknown";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    private static String machine() {
        return String.format("Machine: %d cores, %d MiB heap limit for the suite, %s %s, %s %s.%n",
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                System.getProperty("java.vm.name"), System.getProperty("java.version"),
                System.getProperty("os.name"), System.getProperty("os.arch"))
                + "API server: the local kube-apiserver " + LocalApiServer.kubernetesVersion() + " with etcd "
                + LocalApiServer.etcdVersion() + " on the same machine. Forked JVMs: -Xmx2g -XX:+UseG1GC.\n";
    }

    /**
     * The scale curve: time to synced and retained heap of every subject's informer over each
     * workload, each in a fresh JVM, subjects interleaved round by round; first every subject on
     * the baseline namespace (one object of the kind), whose retained heap is its fixed cost
     * (client, threads, its libraries' caches): the difference is what the cache of the objects costs.
     */
    private static String informers(ScaleCurve curve, Path kubeconfig, int objects, Duration creation) throws Exception {
        log.info("informers: {} forked JVMs", curve.forks());
        long started = System.nanoTime();
        InformerReport results = new InformerReport(curve);
        for (int run = 0; run < curve.baselineRuns(); run++) {
            for (Workload.Kind kind : curve.kinds()) {
                for (Projection projection : Projection.values()) {
                    for (Subject subject : curve.subjects(kind, projection)) {
                        String[] result = informer(subject, projection, kind, Dataset.BASELINE, kubeconfig, 1);
                        results.addBaseline(new InformerReport.Baseline(kind, projection, subject), Long.parseLong(result[1]),
                                Long.parseLong(result[4]));
                        log.info("baseline, {} {} {} run {}: {} bytes", kind.resource(), projection.argument(),
                                subject, run + 1, result[1]);
                    }
                }
            }
        }
        for (Workload workload : curve.workloads()) {
            for (int run = 0; run < workload.runs(); run++) {
                for (Projection projection : Projection.values()) {
                    for (Subject subject : curve.subjects(workload, projection)) {
                        String[] result = informer(subject, projection, workload.kind(), workload.namespace(), kubeconfig,
                                workload.listed());
                        results.add(new InformerReport.Case(workload, projection, subject),
                                new InformerReport.Sample(Long.parseLong(result[0]), Long.parseLong(result[1]),
                                        Long.parseLong(result[3]), Long.parseLong(result[4])));
                        log.info("{} {} {} {} run {}: {} ms, {} bytes, {} ms again warm", workload.objects(),
                                workload.kind().resource(), projection.argument(), subject, run + 1, result[0], result[1],
                                result[3]);
                    }
                }
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        return "### Informers: the scale curve\n\n" + describe(curve, objects, creation, took) + "\n\n" + results.markdown();
    }

    /**
     * One subject's informer in a fresh JVM, or controller-runtime's in a fresh process of its Go
     * program; fails unless it cached exactly {@code expected} objects.
     */
    private static String[] informer(Subject subject, Projection projection, Workload.Kind kind, String namespace,
            Path kubeconfig, int expected) throws Exception {
        String[] result = subject.controllerRuntime()
                ? ControllerRuntimeRuns.informer(subject, projection, kind, namespace, kubeconfig)
                : Forks.run(InformerRun.class, subject.name(), projection.argument(), kind.resource(), namespace,
                        kubeconfig.toString());
        if (Integer.parseInt(result[2]) != expected) {
            throw new IllegalStateException(subject + " cached " + result[2] + " " + kind.resource() + " ("
                    + projection.argument() + ") in " + namespace + ", not " + expected);
        }
        return result;
    }

    private static String describe(ScaleCurve curve, int objects, Duration creation, Duration took) {
        List<String> sizes = new ArrayList<>();
        List<String> withoutTransform = new ArrayList<>();
        for (Workload.Kind kind : curve.kinds()) {
            sizes.add(String.join(", ", curve.sizes(kind).stream().map(workload -> String.format("%,d", workload.objects()))
                    .toList()) + " " + kind.title());
            curve.sizes(kind).stream().filter(workload -> curve.subjects(workload, Projection.FULL_OBJECTS)
                    .contains(Subject.OURS_NO_TRANSFORM)).forEach(workload -> withoutTransform.add(String.format("%,d %s",
                    workload.objects(), kind.title())));
        }
        String runs = curve.workloads().stream().map(workload -> String.format("%,d %s: %d", workload.objects(),
                workload.kind().title(), workload.runs())).collect(Collectors.joining(", "));
        return String.join(" and ", sizes) + " (ConfigMaps with ~1 KiB of data, Pods shaped like a Deployment's), each "
                + "size in a namespace of its own; every subject's informer over one namespace in a fresh JVM, subjects "
                + "interleaved round by round. Runs per subject: " + runs + "; " + curve.baselineRuns()
                + " on the baseline namespace (one object of each kind). Full objects: ours, fabric8 and the official client at every size, ours "
                + "without a transform at " + String.join(" and ", withoutTransform) + " only. Metadata only: ours "
                + "(`metadataInformerFor`) and the official client's equivalent assembled from its parts (a "
                + "three-field model, its stock informer, an interceptor that negotiates `PartialObjectMetadata`); "
                + "fabric8 8.0.0 has no metadata-only informer. controller-runtime " + ControllerRuntime.version()
                + " (its Go program, a fresh process per run): its cache with `cache.TransformStripManagedFields` at "
                + "every size, full and metadata only (its metadata informer), and with no transform where ours runs "
                + "without one. Time to synced counts from before the client is made "
                + "(a cold JVM: class loading included; Go's process start is not counted, nor the JVM's). Retained heap is the heap used after a full GC once synced, "
                + "minus the same before the client was made. The ConfigMap counts include each namespace's "
                + "`kube-root-ca.crt`. Creating the " + String.format("%,d", objects) + " objects took "
                + creation.toSeconds() + " s; measuring, " + took.toSeconds() + " s (" + curve.forks() + " JVMs).";
    }

    private static String latency(Size size, KubernetesClient admin, Path kubeconfig) throws Exception {
        log.info("reconcile latency for {}", size.latency());
        ReconcileLatency.Latency latency = ReconcileLatency.measure(admin, size.latency());
        // after ours, which installed the custom resource's CRD; in a namespace of its own
        ReconcileLatency.Latency controllerRuntime = ControllerRuntimeRuns.latency(kubeconfig, size.latency());
        return String.format("### Reconcile latency%n%nFrom a custom resource update (merge patch) to the start of "
                + "its reconcile, 50 updates per second over 50 objects for %d s, on the local API server; the updater "
                + "runs in the subject's process and writes its monotonic clock, the reconcile reads the object from "
                + "the cache; one subject after the other, each in a namespace of its own.%n%n"
                + "| subject | p50 | p99 | max | samples |%n|---|---|---|---|---|%n"
                + "| ours | **%.1f ms** | **%.1f ms** | %.1f ms | %d |%n| %s | %.1f ms | %.1f ms | %.1f ms | %d |%n",
                size.latency().toSeconds(), latency.p50(), latency.p99(), latency.max(), latency.samples(),
                ControllerRuntime.label(), controllerRuntime.p50(), controllerRuntime.p99(), controllerRuntime.max(),
                controllerRuntime.samples());
    }

    private static String watchThroughput(Size size, Path work) throws Exception {
        StringBuilder table = new StringBuilder("### Watch throughput ceiling\n\n" + String.format("%,d", size.watchEvents())
                + " ADDED events of ~1 KiB ConfigMaps sent by an in-process server as fast as the client reads, over "
                + "HTTP streaming (one JSON event per line) or, for fabric8's WebSocket watch, one WebSocket text "
                + "message per event; events per second delivered to an informer handler, from the first to the last; "
                + "min / median / max of " + size.watchRuns() + " fresh JVMs (controller-runtime: fresh processes of its "
                + "Go program, its cache's informer with the strip-managed-fields transform, over HTTP streaming).\n\n"
                + "| subject | events per second | ours ÷ subject (medians) |\n|---|---|---|\n");
        byte[] stream = DecodeBenchmark.watchStream(size.watchEvents());
        Map<WatchSubject, Stats> results = new LinkedHashMap<>();
        try (WatchServer server = WatchServer.start()) {
            Map<WatchTransport, Path> kubeconfigs = new LinkedHashMap<>();
            for (WatchTransport transport : WatchTransport.values()) {
                kubeconfigs.put(transport, server.kubeconfig(work.resolve("fake-kubeconfig-" + transport), transport));
            }
            Map<WatchSubject, List<Long>> rates = new LinkedHashMap<>();
            for (int run = 0; run < size.watchRuns(); run++) {
                for (WatchSubject subject : WatchSubject.values()) {
                    server.serve(stream);
                    Path kubeconfig = kubeconfigs.get(subject.transport());
                    String[] result = subject.client().controllerRuntime()
                            ? new String[] {String.valueOf(ControllerRuntimeRuns.watch(kubeconfig, size.watchEvents()))}
                            : Forks.run(WatchRun.class, subject.name(), kubeconfig.toString(),
                                    String.valueOf(size.watchEvents()));
                    WatchServer.Traffic traffic = server.traffic();
                    if (traffic.events().orElse(null) != subject.transport()) {
                        throw new IllegalStateException(subject + " was to receive its events over " + subject.transport()
                                + " but the server saw " + traffic);
                    }
                    rates.computeIfAbsent(subject, s -> new ArrayList<>()).add(Long.parseLong(result[0]));
                    log.info("watch {} run {}: {} events/s ({})", subject, run + 1, result[0], traffic);
                }
            }
            rates.forEach((subject, values) -> results.put(subject, Stats.of(values)));
        }
        double ours = results.get(WatchSubject.OURS).median();
        results.forEach((subject, stats) -> table.append("| ").append(subject.label()).append(" | ")
                .append(stats.format("", 1).strip()).append(" | ")
                .append(subject == WatchSubject.OURS ? "" : String.format("%.2fx", ours / stats.median())).append(" |\n"));
        return table.toString();
    }

    private static String jmh(Size size) throws Exception {
        log.info("JMH micro benchmarks");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(WorkQueueBenchmark.class.getName()).include(IndexerBenchmark.class.getName())
                .include(DecodeBenchmark.class.getName()).include(ClockBenchmark.class.getName()).forks(1).warmupIterations(size.jmhWarmups())
                .warmupTime(TimeValue.milliseconds(size.jmhTime().toMillis())).measurementIterations(size.jmhIterations())
                .measurementTime(TimeValue.milliseconds(size.jmhTime().toMillis())).jvmArgs("-Xmx1g").build()).run();
        Map<String, Double> scores = new LinkedHashMap<>();
        StringBuilder table = new StringBuilder("### JMH micro benchmarks\n\n" + size.jmhWarmups() + " warm-up and "
                + size.jmhIterations() + " measured iterations of " + size.jmhTime().toSeconds() + " s, one fork; "
                + "score ± 99.9% error.\n\n| benchmark | parameters | score |\n|---|---|---|\n");
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark().replace(Suite.class.getPackageName() + ".", "");
            String params = String.join(", ", result.getParams().getParamsKeys().stream()
                    .map(key -> key + "=" + result.getParams().getParam(key)).toList());
            double score = result.getPrimaryResult().getScore();
            scores.put(name + (params.isEmpty() ? "" : " " + params), score);
            table.append("| ").append(name).append(" | ").append(params).append(" | ")
                    .append(String.format("%,.0f ± %,.0f %s", score, result.getPrimaryResult().getScoreError(),
                            result.getPrimaryResult().getScoreUnit())).append(" |\n");
        }
        table.append('\n');
        for (String threads : List.of("oneThread", "twoThreads", "fourThreads")) {
            Double withMetrics = scores.get("WorkQueueBenchmark." + threads + " queue=ours-metrics");
            Double withoutMetrics = scores.get("WorkQueueBenchmark." + threads + " queue=ours-no-metrics");
            Double official = scores.get("WorkQueueBenchmark." + threads + " queue=official");
            if (withMetrics != null && withoutMetrics != null && official != null) {
                table.append(String.format("Work queue, %s: ours with metrics ÷ official = **%.2fx** (goal ≥ 2x); "
                        + "ours without metrics ÷ official = %.2fx.%n", threads, withMetrics / official,
                        withoutMetrics / official));
            }
        }
        Double clock = scores.get("ClockBenchmark.threeClockReads");
        Double officialOneThread = scores.get("WorkQueueBenchmark.oneThread queue=official");
        if (clock != null && officialOneThread != null) {
            table.append(String.format("Timing floor: the three clock reads a timed cycle needs take %.0f ns; the official "
                    + "queue's whole cycle at one thread takes %.0f ns, so 2x it leaves %.0f ns for a cycle.%n",
                    1e9 / clock, 1e9 / officialOneThread, 1e9 / officialOneThread / 2));
        }
        Double ours = scores.get("DecodeBenchmark.ours");
        Double plain = scores.get("DecodeBenchmark.plainJackson");
        if (ours != null && plain != null) {
            table.append(String.format("Watch decode: ours ÷ plain Jackson = **%.0f%%** (goal ≥ 70%%).%n", 100 * ours / plain));
        }
        return table.toString();
    }
}

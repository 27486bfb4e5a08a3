package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole benchmark suite, one command ({@code benchmarks/run}, or {@code benchmarks/run -quick}):
 * starts the local API server, creates the objects once, runs every subject's informer in fresh
 * JVMs, the JMH micro benchmarks, the watch-throughput ceiling and the reconcile latency, and
 * writes the tables to {@code benchmarks/target/results.md} (and standard output).
 */
public final class Suite {

    private static final Logger log = LoggerFactory.getLogger(Suite.class);

    /** How much of everything: the full run, or a quick check of the same steps. */
    record Size(String name, int configMaps, int pods, int runs, int watchEvents, Duration latency, int jmhWarmups,
            int jmhIterations, Duration jmhTime) {
        static final Size FULL = new Size("full", 10_000, 2_000, 5, 100_000, Duration.ofSeconds(30), 3, 5,
                Duration.ofSeconds(2));
        static final Size QUICK = new Size("quick", 2_000, 500, 1, 20_000, Duration.ofSeconds(8), 1, 2,
                Duration.ofSeconds(1));
    }

    private static final List<String> SECTIONS = List.of("informers", "latency", "watch", "jmh");

    private Suite() {
    }

    /**
     * @param args {@code -quick} for the small run; {@code --only=informers,latency,watch,jmh} to run
     *     some sections (all by default)
     */
    public static void main(String[] args) throws Exception {
        // exec:exec passes benchmarks/run's arguments as one: split them again
        List<String> arguments = java.util.Arrays.stream(args).flatMap(arg -> java.util.Arrays.stream(arg.strip().split("\\s+")))
                .toList();
        Size size = arguments.contains("-quick") || arguments.contains("--quick") ? Size.QUICK : Size.FULL;
        List<String> sections = arguments.stream().filter(arg -> arg.startsWith("--only=")).findFirst()
                .map(arg -> List.of(arg.substring("--only=".length()).split(","))).orElse(SECTIONS);
        long started = System.nanoTime();
        StringBuilder report = new StringBuilder();
        report.append("<!-- results:start (benchmarks/run").append(size == Size.QUICK ? " -quick" : "").append(", ")
                .append(LocalDate.now()).append(") -->\n");
        report.append(machine()).append('\n');
        Path work = Files.createDirectories(Path.of("target", "benchmarks"));
        if (sections.contains("informers") || sections.contains("latency")) {
            try (LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
                    KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(
                            server.connection().kubeconfig(), null))) {
                if (sections.contains("informers")) {
                    log.info("creating {} ConfigMaps and {} Pods", size.configMaps(), size.pods());
                    Dataset.create(admin, size.configMaps(), size.pods());
                    Path kubeconfig = TokenKubeconfig.write(admin, server.connection(), work.resolve("token-kubeconfig"));
                    report.append(informers(size, kubeconfig, admin)).append('\n');
                }
                if (sections.contains("latency")) {
                    report.append(latency(size, admin)).append('\n');
                }
            }
        }
        if (sections.contains("watch")) {
            report.append(watchThroughput(size, work)).append('\n');
        }
        if (sections.contains("jmh")) {
            report.append(jmh(size)).append('\n');
        }
        report.append(String.format("Whole suite (%s%s): %d s.%n", size.name(),
                sections.equals(SECTIONS) ? "" : ", only " + String.join(",", sections),
                Duration.ofNanos(System.nanoTime() - started).toSeconds()));
        report.append("<!-- results:end -->\n");
        Files.writeString(work.resolve("results.md"), report);
        System.out.println(report);
        System.out.println("written to " + work.resolve("results.md").toAbsolutePath());
        System.exit(0);
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
     * Time to synced and retained heap, each subject in a fresh JVM, subjects interleaved round by
     * round. Each round also runs every subject on an empty namespace: its retained heap there is
     * the subject's fixed cost (client, threads, caches of its libraries), and the difference is
     * what the cache of the objects costs.
     */
    private static String informers(Size size, Path kubeconfig, KubernetesClient admin) throws Exception {
        StringBuilder table = new StringBuilder("### Informer sync time and retained heap\n\n"
                + "min / median / max of " + size.runs() + " runs, each in a fresh JVM. Time to synced counts from "
                + "before the client is made (a cold JVM: class loading included). Retained heap is the heap used "
                + "after a full GC once synced, minus the same before the client was made; the cache alone is that "
                + "minus the subject's median on an empty namespace.\n\n"
                + "| objects | subject | time to synced | retained heap | cache alone (median) | per object |\n"
                + "|---|---|---|---|---|---|\n");
        for (String resource : List.of("configmaps", "pods")) {
            String namespace = resource.equals("pods") ? Dataset.PODS : Dataset.CONFIGMAPS;
            // as the server lists them: the namespace's kube-root-ca.crt ConfigMap counts too
            int count = resource.equals("pods") ? admin.coreV1().pods().inNamespace(namespace).list().items().size()
                    : admin.coreV1().configMaps().inNamespace(namespace).list().items().size();
            if (count < (resource.equals("pods") ? size.pods() : size.configMaps())) {
                throw new IllegalStateException("only " + count + " " + resource + " in " + namespace);
            }
            Map<Subject, List<Long>> times = new LinkedHashMap<>();
            Map<Subject, List<Long>> heaps = new LinkedHashMap<>();
            Map<Subject, List<Long>> fixed = new LinkedHashMap<>();
            for (int run = 0; run < size.runs(); run++) {
                for (Subject subject : Subject.values()) {
                    String[] result = Forks.run(InformerRun.class, subject.name(), resource, namespace, kubeconfig.toString());
                    if (Integer.parseInt(result[2]) != count) {
                        throw new IllegalStateException(subject + " cached " + result[2] + " " + resource + ", not " + count);
                    }
                    times.computeIfAbsent(subject, s -> new ArrayList<>()).add(Long.parseLong(result[0]));
                    heaps.computeIfAbsent(subject, s -> new ArrayList<>()).add(Long.parseLong(result[1]));
                    String[] empty = Forks.run(InformerRun.class, subject.name(), resource, Dataset.EMPTY,
                            kubeconfig.toString());
                    fixed.computeIfAbsent(subject, s -> new ArrayList<>()).add(Long.parseLong(empty[1]));
                    log.info("{} {} run {}: {} ms, {} bytes ({} bytes on an empty namespace)", resource, subject,
                            run + 1, result[0], result[1], empty[1]);
                }
            }
            Map<Subject, Double> caches = new LinkedHashMap<>();
            for (Subject subject : Subject.values()) {
                Stats heap = Stats.of(heaps.get(subject));
                double cache = heap.median() - Stats.of(fixed.get(subject)).median();
                caches.put(subject, cache);
                table.append("| ").append(String.format("%,d %s", count, resource)).append(" | ").append(subject.label())
                        .append(" | ").append(Stats.of(times.get(subject)).format("ms", 1)).append(" | ")
                        .append(heap.format("MiB", 1 << 20)).append(" | ")
                        .append(String.format("%.1f MiB", cache / (1 << 20))).append(" | ")
                        .append(count == 0 ? "" : String.format("%,.0f B", cache / count)).append(" |\n");
            }
            table.append(ratios(resource, times, heaps, caches));
        }
        return table.toString();
    }

    /** The goals' ratios for one dataset: sync time vs the faster peer, heap vs the smaller peer. */
    private static String ratios(String resource, Map<Subject, List<Long>> times, Map<Subject, List<Long>> heaps,
            Map<Subject, Double> caches) {
        double ourTime = Stats.of(times.get(Subject.OURS)).median();
        double peerTime = Math.min(Stats.of(times.get(Subject.FABRIC8)).median(), Stats.of(times.get(Subject.OFFICIAL)).median());
        double ourHeap = Stats.of(heaps.get(Subject.OURS)).median();
        double peerHeap = Math.min(Stats.of(heaps.get(Subject.FABRIC8)).median(), Stats.of(heaps.get(Subject.OFFICIAL)).median());
        double ourCache = caches.get(Subject.OURS);
        double peerCache = Math.min(caches.get(Subject.FABRIC8), caches.get(Subject.OFFICIAL));
        return String.format("| %s | **ours ÷ the better peer** (medians; goals: time ≤ 0.8x, heap ≤ 0.6x) | **%.2fx** | "
                + "**%.2fx** | **%.2fx** | |%n", resource, ourTime / peerTime, ourHeap / peerHeap, ourCache / peerCache);
    }

    private static String latency(Size size, KubernetesClient admin) throws Exception {
        log.info("reconcile latency for {}", size.latency());
        ReconcileLatency.Latency latency = ReconcileLatency.measure(admin, size.latency());
        return String.format("### Reconcile latency (ours)%n%nFrom a custom resource update (merge patch) to the start of "
                + "its reconcile, 50 updates per second over 50 objects for %d s, on the local API server: "
                + "p50 **%.1f ms**, p99 **%.1f ms**, max %.1f ms (%d samples).%n", size.latency().toSeconds(),
                latency.p50(), latency.p99(), latency.max(), latency.samples());
    }

    private static String watchThroughput(Size size, Path work) throws Exception {
        StringBuilder table = new StringBuilder("### Watch throughput ceiling\n\n" + String.format("%,d", size.watchEvents())
                + " ADDED events of ~1 KiB ConfigMaps streamed by an in-process HTTP server as fast as the client "
                + "reads; events per second delivered to an informer handler, from the first to the last; min / median / "
                + "max of " + watchRuns(size) + " fresh JVMs.\n\n| subject | events per second |\n|---|---|\n");
        byte[] stream = DecodeBenchmark.watchStream(size.watchEvents());
        Map<Subject, Stats> results = new LinkedHashMap<>();
        try (WatchServer server = new WatchServer()) {
            Path kubeconfig = server.kubeconfig(work.resolve("fake-kubeconfig"));
            Map<Subject, List<Long>> rates = new LinkedHashMap<>();
            for (int run = 0; run < watchRuns(size); run++) {
                for (Subject subject : List.of(Subject.OURS, Subject.FABRIC8, Subject.OFFICIAL)) {
                    server.serve(stream);
                    String[] result = Forks.run(WatchRun.class, subject.name(), kubeconfig.toString(),
                            String.valueOf(size.watchEvents()));
                    rates.computeIfAbsent(subject, s -> new ArrayList<>()).add(Long.parseLong(result[0]));
                    log.info("watch {} run {}: {} events/s", subject, run + 1, result[0]);
                }
            }
            rates.forEach((subject, values) -> results.put(subject, Stats.of(values)));
        }
        results.forEach((subject, stats) -> table.append("| ").append(subject.label()).append(" | ")
                .append(stats.format("", 1).strip()).append(" |\n"));
        return table.toString();
    }

    private static int watchRuns(Size size) {
        return size == Size.QUICK ? 1 : size.runs();
    }

    private static String jmh(Size size) throws Exception {
        log.info("JMH micro benchmarks");
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                .include(WorkQueueBenchmark.class.getName()).include(IndexerBenchmark.class.getName())
                .include(DecodeBenchmark.class.getName()).forks(1).warmupIterations(size.jmhWarmups())
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
            Double ours = scores.get("WorkQueueBenchmark." + threads + " queue=ours");
            Double official = scores.get("WorkQueueBenchmark." + threads + " queue=official");
            if (ours != null && official != null) {
                table.append(String.format("Work queue, %s: ours ÷ official = **%.2fx** (goal ≥ 2x).%n", threads,
                        ours / official));
            }
        }
        Double ours = scores.get("DecodeBenchmark.ours");
        Double plain = scores.get("DecodeBenchmark.plainJackson");
        if (ours != null && plain != null) {
            table.append(String.format("Watch decode: ours ÷ plain Jackson = **%.0f%%** (goal ≥ 70%%).%n", 100 * ours / plain));
        }
        return table.toString();
    }
}

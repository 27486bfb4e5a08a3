package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where our informer's sync spends its time, cold and warm, by hand (not a suite section): starts the
 * local API server, creates one namespace of ConfigMaps and one of Pods, and for each kind runs, in a
 * fresh JVM on the chosen JDK and class data ({@link ClassData}; an archive is first written by a
 * training run on the baseline namespace, as {@link ColdSync} does), one cold sync and then
 * {@code warm} warm syncs, each with a new client and informer, while JFR samples every thread each
 * millisecond. Prints each sync's time, the process's CPU time, classes loaded and JIT time during
 * it, then the samples of the cold sync, of the warm syncs, and of the later half of the warm syncs: by category
 * ({@link SyncBreakdown.Category}), by thread, by top frame and by the first frame of ours.
 *
 * <p>Usage: {@code SyncProfiler <objects per kind> <warm syncs> <folder> [none|cds|newer-none|aot-cache]}
 * (default {@code none}: the suite's JDK, no archive). The forked JVM: {@code SyncProfiler fork <kind>
 * <namespace> <kubeconfig> <expected> <warm syncs> <recording>}.
 */
public final class SyncProfiler {

    private SyncProfiler() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("fork")) {
            fork(Workload.Kind.parse(args[1]), args[2], Path.of(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Path.of(args[6]));
            return;
        }
        int objects = Integer.parseInt(args[0]);
        int warm = Integer.parseInt(args[1]);
        Path folder = Files.createDirectories(Path.of(args[2]).toAbsolutePath());
        ClassData classData = args.length > 3 ? ClassData.valueOf(args[3].toUpperCase(Locale.ROOT).replace('-', '_'))
                : ClassData.NONE;
        Jdk jdk = classData.newerJdk() ? Jdk.newer(StartupTime.AOT_CACHE_JDK, System.getenv()).orElseThrow(
                () -> new IllegalStateException("no JDK " + StartupTime.AOT_CACHE_JDK + " (set " + Jdk.NEWER_JDK_VARIABLE
                        + ")")) : Jdk.current();
        String classPath = JarredClassPath.of(System.getProperty("java.class.path"), folder.resolve("classpath"));
        try (LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
                KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(),
                        null))) {
            List<Workload> workloads = List.of(new Workload(Workload.Kind.CONFIGMAPS, objects, 1),
                    new Workload(Workload.Kind.PODS, objects, 1));
            Dataset.create(admin, workloads);
            Path kubeconfig = TokenKubeconfig.write(admin, server.connection(), folder.resolve("token-kubeconfig"));
            for (Workload workload : workloads) {
                String kind = workload.kind().resource();
                List<String> options = List.of();
                if (classData.archived()) {
                    Path archive = folder.resolve(classData.archiveName("profiler-" + kind));
                    Files.deleteIfExists(archive);
                    run(command(jdk, classData.trainingOptions(archive), classPath, kind, Dataset.BASELINE, kubeconfig,
                            1, 1, folder.resolve("training-" + kind + ".jfr")), false);
                    options = classData.runOptions(archive);
                }
                run(command(jdk, options, classPath, kind, workload.namespace(), kubeconfig, workload.listed(), warm,
                        folder.resolve("sync-" + kind + "-" + classData.name().toLowerCase(Locale.ROOT) + ".jfr")), true);
            }
        }
        System.exit(0);
    }

    private static List<String> command(Jdk jdk, List<String> options, String classPath, String kind, String namespace,
            Path kubeconfig, int expected, int warm, Path recording) {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString(), "-Xmx2g", "-XX:+UseG1GC"));
        command.addAll(options);
        command.addAll(List.of("-cp", classPath, SyncProfiler.class.getName(), "fork", kind, namespace,
                kubeconfig.toString(), String.valueOf(expected), String.valueOf(warm), recording.toString()));
        return command;
    }

    private static void run(List<String> command, boolean show) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command);
        Process process = (show ? builder.inheritIO() : builder.redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)).start();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue());
        }
    }

    private static void fork(Workload.Kind kind, String namespace, Path kubeconfig, int expected, int warm, Path file)
            throws Exception {
        List<Instant> marks = new ArrayList<>();
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(1));
            recording.start();
            for (int i = 0; i <= warm; i++) {
                marks.add(Instant.now());
                Figures before = Figures.now();
                long millis = sync(kind, namespace, kubeconfig, expected);
                Figures during = Figures.now().minus(before);
                System.out.printf("%s %s sync: %d ms; process CPU %d ms, %d classes loaded, JIT %d ms%n", kind.resource(),
                        i == 0 ? "cold" : "warm " + i, millis, during.cpuMillis(), during.classes(), during.jitMillis());
            }
            marks.add(Instant.now());
            recording.stop();
            recording.dump(file);
        }
        report(kind.resource() + ", cold sync", file, marks.get(0), marks.get(1));
        if (warm > 0) {
            report(kind.resource() + ", warm syncs", file, marks.get(1), marks.get(marks.size() - 1));
        }
        if (warm > 1) {
            // the later half: what is left once the JIT has caught up
            report(kind.resource() + ", warm syncs " + (warm / 2 + 1) + " to " + warm, file, marks.get(warm / 2 + 1),
                    marks.get(marks.size() - 1));
        }
        System.out.flush();
        System.exit(0);
    }

    /** The process's CPU time, classes loaded and JIT time so far. */
    private record Figures(long cpuMillis, long classes, long jitMillis) {
        static Figures now() {
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            return new Figures(os.getProcessCpuTime() / 1_000_000, ManagementFactory.getClassLoadingMXBean()
                    .getTotalLoadedClassCount(), ManagementFactory.getCompilationMXBean().getTotalCompilationTime());
        }

        Figures minus(Figures before) {
            return new Figures(cpuMillis - before.cpuMillis, classes - before.classes, jitMillis - before.jitMillis);
        }
    }

    private static long sync(Workload.Kind kind, String namespace, Path kubeconfig, int expected) throws Exception {
        long started = System.nanoTime();
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.builder().build());
        SharedIndexInformer<? extends HasMetadata> informer = factory.informerFor(kind.type(),
                InformerScope.namespace(namespace));
        factory.start();
        long deadline = started + Duration.ofMinutes(2).toNanos();
        while (!informer.hasSynced()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no sync within 2 minutes");
            }
            Thread.sleep(1);
        }
        long millis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        if (informer.indexer().size() != expected) {
            throw new IllegalStateException("cached " + informer.indexer().size() + ", not " + expected);
        }
        factory.close();
        client.close();
        return millis;
    }

    private static void report(String title, Path file, Instant from, Instant to) throws Exception {
        List<List<String>> stacks = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStartTime().isBefore(from)
                    || event.getStartTime().isAfter(to) || event.getStackTrace() == null) {
                continue;
            }
            stacks.add(event.getStackTrace().getFrames().stream().map(SyncProfiler::name).toList());
            String thread = Optional.ofNullable(event.getThread("sampledThread").getJavaName()).orElse("?");
            threads.add(thread.replaceAll("-?\\d+$", ""));
        }
        System.out.printf("%n%s: %d samples%n", title, stacks.size());
        print("by category", stacks, stack -> SyncBreakdown.Category.of(stack).title(), 20);
        print("by thread", threads, Function.identity(), 10);
        print("by top frame", stacks, stack -> stack.isEmpty() ? "?" : stack.get(0), 40);
        print("by first frame of ours (dev.operatorstarter)", stacks, stack -> stack.stream()
                .filter(frame -> frame.startsWith("dev.operatorstarter.")).findFirst().orElse("(none)"), 30);
    }

    private static <T> void print(String title, List<T> samples, Function<T, String> key, int limit) {
        Map<String, Integer> counts = new HashMap<>();
        samples.forEach(sample -> counts.merge(key.apply(sample), 1, Integer::sum));
        System.out.println("-- " + title);
        counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()))
                .limit(limit).forEach(entry -> System.out.printf("%6.1f%%  %s%n", 100.0 * entry.getValue() / samples.size(),
                        entry.getKey()));
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }
}

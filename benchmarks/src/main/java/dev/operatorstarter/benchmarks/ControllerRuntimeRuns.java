package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite's sections' controller-runtime runs: each starts {@link ControllerRuntime}'s program
 * for one scenario with the flags that match what the Java subjects get, and turns its result line
 * into the figures the section reports.
 */
final class ControllerRuntimeRuns {

    private static final Duration INFORMER_TIMEOUT = Duration.ofMinutes(6);

    private ControllerRuntimeRuns() {
    }

    /** The flags of the scale curve's run: as {@link InformerRun}'s arguments. */
    static List<String> informerFlags(Subject subject, Projection projection, Workload.Kind kind, String namespace,
            Path kubeconfig) {
        if (!subject.controllerRuntime()) {
            throw new IllegalArgumentException(subject + " is not controller-runtime");
        }
        return List.of("-kubeconfig=" + kubeconfig, "-namespace=" + namespace, "-kind=" + kind.resource(),
                "-projection=" + projection.argument(),
                "-transform=" + (subject == Subject.CONTROLLER_RUNTIME ? "strip" : "none"));
    }

    /**
     * One scale-curve measurement, as {@link InformerRun} prints it: sync ms, retained bytes, objects
     * cached, warm sync ms, resident set size.
     */
    static String[] informer(Subject subject, Projection projection, Workload.Kind kind, String namespace, Path kubeconfig)
            throws IOException, InterruptedException {
        return informerFigures(ControllerRuntimeResult.run("informer", INFORMER_TIMEOUT,
                informerFlags(subject, projection, kind, namespace, kubeconfig)));
    }

    static String[] informerFigures(ControllerRuntimeResult result) {
        return new String[] {String.valueOf(result.number("syncMillis")), String.valueOf(result.number("retainedBytes")),
                String.valueOf(result.number("objects")), String.valueOf(result.number("warmSyncMillis")),
                String.valueOf(result.number("rssBytes"))};
    }

    /** Events per second of one watch-throughput run against the suite's watch server. */
    static long watch(Path kubeconfig, int events) throws IOException, InterruptedException {
        return ControllerRuntimeResult.run("watch", Duration.ofMinutes(6), List.of("-kubeconfig=" + kubeconfig,
                "-namespace=bench", "-events=" + events)).number("eventsPerSecond");
    }

    /** Reconcile latency as {@link ReconcileLatency} measures it, in a namespace of controller-runtime's own. */
    static ReconcileLatency.Latency latency(Path kubeconfig, Duration duration) throws IOException, InterruptedException {
        ControllerRuntimeResult result = ControllerRuntimeResult.run("latency", duration.plus(Duration.ofMinutes(3)),
                List.of("-kubeconfig=" + kubeconfig, "-namespace=bench-latency-controller-runtime",
                        "-duration=" + duration.toMillis() + "ms", "-objects=50"));
        return new ReconcileLatency.Latency(result.decimal("p50Millis"), result.decimal("p99Millis"),
                result.decimal("maxMillis"), (int) result.number("samples"));
    }

    /**
     * One start-up: launch to the first reconcile of a minimal manager with one ConfigMap controller over
     * {@code namespace}, timed from just before the process is started to the wall-clock time it printed
     * at that reconcile; and the CPU time it had used by then.
     */
    static StartupTime.Sample startup(Path kubeconfig, String namespace) throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>(List.of("-kubeconfig=" + kubeconfig, "-namespace=" + namespace));
        // built (on first use) and checked against its manifest before the clock starts
        Path program = ControllerRuntime.binary();
        Instant launched = Instant.now();
        ControllerRuntimeResult result = ControllerRuntimeResult.run(program, "operator", Duration.ofMinutes(3), flags);
        return startupSample(launched, result);
    }

    static StartupTime.Sample startupSample(Instant launched, ControllerRuntimeResult result) {
        if (!result.event().orElse("").equals("first-reconcile")) {
            throw new IllegalArgumentException("controller-runtime's start-up run ended without its first reconcile: "
                    + result.line());
        }
        long nanos = result.number("unixNanos");
        Duration firstReconcile = Duration.between(launched, Instant.ofEpochSecond(nanos / 1_000_000_000L,
                nanos % 1_000_000_000L));
        return new StartupTime.Sample(firstReconcile, firstReconcile, Duration.ofMillis(result.number("cpuMillis")));
    }
}

package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The suite's {@code priority} section: {@link PriorityRestart}'s two scenarios for ours, each in a
 * fresh JVM, beside controller-runtime's run of the same scenarios (its program's {@code priority}
 * scenario), with each side's priority queue and in FIFO order. {@code -quick} runs the latency
 * scenario only: the saturation scenario waits up to {@value PriorityRestart#SATURATION_LIMIT_SECONDS}
 * s for controller-runtime's starved list.
 */
final class PrioritySection {

    private static final Duration CONTROLLER_RUNTIME_TIMEOUT =
            Duration.ofSeconds(PriorityRestart.SATURATION_LIMIT_SECONDS).plus(Duration.ofMinutes(2));

    private PrioritySection() {
    }

    static String section(boolean quick) throws IOException, InterruptedException {
        List<String> modes = quick ? List.of("latency") : List.of("latency", "saturation");
        List<PriorityRestart.Result> results = new ArrayList<>();
        for (String mode : modes) {
            for (String queue : List.of("priority", "fifo")) {
                results.add(ours(queue, mode, PriorityRestart.JVM_OPTIONS));
                results.add(controllerRuntime(queue, mode));
                if (queue.equals("priority") && mode.equals("latency")) {
                    List<String> c1 = new ArrayList<>(PriorityRestart.JVM_OPTIONS);
                    c1.add(PriorityRestart.C1_ONLY);
                    results.add(ours(queue, mode, c1).named("ours, priority, C1 only"));
                }
            }
        }
        StringBuilder section = new StringBuilder("## The priority queue's restart\n\n");
        section.append(String.format("%,d ConfigMaps in the initial list of an informer fed from memory, %d workers, a "
                + "reconcile that sleeps %d ms. Latency: an update every %d ms of a listed object not yet reconciled, from "
                + "its watch event to the first reconcile that sees it, until the list is done. Saturation: %d new "
                + "objects every millisecond; the time until the last listed object is reconciled, or how many are left "
                + "after %d s. Ours in a fresh JVM per run (%s; \"C1 only\" adds %s), controller-runtime %s's program per "
                + "run. Its controller waits for its handler's initial list as the builder's source.Kind makes it "
                + "(polling every 100 ms), ours as its start does; \"p99 once reconciling\": of the updates emitted "
                + "once the first reconcile had started.%n%n",
                PriorityRestart.LISTED, PriorityRestart.WORKERS, PriorityRestart.RECONCILE_MILLIS,
                PriorityRestart.UPDATE_EVERY_MILLIS, PriorityRestart.FRESH_PER_MILLI,
                PriorityRestart.SATURATION_LIMIT_SECONDS, String.join(" ", PriorityRestart.JVM_OPTIONS),
                PriorityRestart.C1_ONLY, ControllerRuntime.version()));
        section.append(PriorityRestart.table(results));
        return section.toString();
    }

    private static PriorityRestart.Result ours(String queue, String mode, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return PriorityRestart.Result.parse(Forks.run(jvmOptions, PriorityRestart.class, queue, mode));
    }

    private static PriorityRestart.Result controllerRuntime(String queue, String mode)
            throws IOException, InterruptedException {
        ControllerRuntimeResult result = ControllerRuntimeResult.run("priority", CONTROLLER_RUNTIME_TIMEOUT,
                List.of("-queue=" + queue, "-mode=" + mode));
        int left = (int) result.number("listLeft");
        String variant = "controller-runtime, " + (queue.equals("fifo") ? "FIFO" : "priority");
        double done = left == 0 ? result.decimal("listDoneSeconds") : Double.NaN;
        double first = result.has("firstReconcileMillis") ? result.decimal("firstReconcileMillis") : Double.NaN;
        if (mode.equals("saturation")) {
            return new PriorityRestart.Result(variant, mode, Double.NaN, Double.NaN, Double.NaN, 0, Double.NaN, first,
                    done, left);
        }
        return new PriorityRestart.Result(variant, mode, result.decimal("p50Millis"), result.decimal("p99Millis"),
                result.decimal("maxMillis"), (int) result.number("updates"),
                result.has("p99ReconcilingMillis") ? result.decimal("p99ReconcilingMillis") : Double.NaN, first, done,
                left);
    }
}

package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Failover: two replicas of a minimal operator (a manager with Lease leader election and one
 * controller over the ConfigMaps of a namespace), the leader killed with SIGKILL, and the time from
 * the kill to the first reconcile by the other replica. Ours ({@link FailoverReplica}, a fresh JVM
 * each) beside controller-runtime's ({@link ControllerRuntime}'s {@code operator} scenario), with the
 * same lease timings: controller-runtime's defaults, which are ours too. A killed leader does not
 * release its Lease, so the figure is mostly the lease duration: the follower takes over once it has
 * seen the record unchanged for that long, at its next retry.
 */
final class Failover {

    static final Duration LEASE_DURATION = Duration.ofSeconds(15);
    static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);
    static final Duration RETRY_PERIOD = Duration.ofSeconds(2);
    static final int RUNS = 3;
    static final int QUICK_RUNS = 1;
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(2);
    private static final Logger log = LoggerFactory.getLogger(Failover.class);

    private Failover() {
    }

    /**
     * The section: every subject's failover, {@code runs} times, subjects interleaved; with {@code -quick}
     * one run each, both subjects side by side (the figure is mostly the lease duration, and waiting it
     * out twice in a row would take {@code -quick} past its time).
     */
    static String section(boolean quick, KubernetesClient admin, Path kubeconfig) throws Exception {
        int runs = quick ? QUICK_RUNS : RUNS;
        List<Subject> subjects = List.of(Subject.OURS, Subject.CONTROLLER_RUNTIME);
        Map<Subject, List<Long>> results = new LinkedHashMap<>();
        ExecutorService sideBySide = Executors.newFixedThreadPool(quick ? subjects.size() : 1);
        try {
            for (int run = 1; run <= runs; run++) {
                Map<Subject, Future<Duration>> trials = new LinkedHashMap<>();
                for (Subject subject : subjects) {
                    String namespace = "failover-" + (subject.controllerRuntime() ? "cr" : "ours") + "-" + run;
                    trials.put(subject, sideBySide.submit(() -> measure(subject, admin, kubeconfig, namespace)));
                }
                for (Map.Entry<Subject, Future<Duration>> trial : trials.entrySet()) {
                    Duration took = trial.getValue().get();
                    results.computeIfAbsent(trial.getKey(), s -> new ArrayList<>()).add(took.toMillis());
                    log.info("failover {} run {}: {} ms from kill -9 to the other replica's first reconcile",
                            trial.getKey(), run, took.toMillis());
                }
            }
        } finally {
            sideBySide.shutdownNow();
        }
        return markdown(runs, results) + (quick ? "\nWith `-quick` the two subjects ran side by side.\n" : "");
    }

    static String markdown(int runs, Map<Subject, List<Long>> results) {
        StringBuilder text = new StringBuilder("### Failover\n\nTwo replicas of a minimal operator (a manager with Lease "
                + "leader election and one controller over the ConfigMaps of a namespace that holds two), the second "
                + "started once the first has reconciled and waiting with its cache synced; the leader killed with SIGKILL; "
                + "seconds from the kill to the other replica's first reconcile. Lease duration "
                + LEASE_DURATION.toSeconds() + " s, renew deadline " + RENEW_DEADLINE.toSeconds() + " s, retry period "
                + RETRY_PERIOD.toSeconds() + " s for both (controller-runtime's defaults and ours); min / median / max of "
                + runs + (runs == 1 ? " run" : " runs") + " per subject, interleaved.\n\n"
                + "| subject | kill -9 to first reconcile (s) |\n|---|---|\n");
        results.forEach((subject, millis) -> text.append("| ").append(subject.controllerRuntime() ? ControllerRuntime.label()
                : "ours").append(" | ").append(Stats.of(millis).format("", 1000).strip()).append(" |\n"));
        if (results.containsKey(Subject.OURS) && results.containsKey(Subject.CONTROLLER_RUNTIME)) {
            text.append(String.format("%nOurs ÷ controller-runtime (medians): **%.2fx** (goal ≤ 1x).%n",
                    Stats.of(results.get(Subject.OURS)).median() / Stats.of(results.get(Subject.CONTROLLER_RUNTIME)).median()));
        }
        return text.toString();
    }

    private static Duration measure(Subject subject, KubernetesClient admin, Path kubeconfig, String namespace)
            throws Exception {
        admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
        admin.coreV1().configMaps().inNamespace(namespace).create(new ConfigMapBuilder().withNewMetadata()
                .withName("failover").endMetadata().addToData("key", "value").build());
        try (Replica first = Replica.start(subject, kubeconfig, namespace, "first")) {
            first.await("first-reconcile");
            try (Replica second = Replica.start(subject, kubeconfig, namespace, "second")) {
                second.await("ready");
                Instant killed = first.kill();
                Instant reconciled = second.await("first-reconcile");
                return Duration.between(killed, reconciled);
            }
        }
    }

    /** One replica's process, its result lines queued as they come. */
    private static final class Replica implements AutoCloseable {
        private final String name;
        private final Process process;
        private final LinkedBlockingQueue<ControllerRuntimeResult> events = new LinkedBlockingQueue<>();
        private final List<String> other = new ArrayList<>();

        private Replica(String name, Process process) {
            this.name = name;
            this.process = process;
            Thread reader = new Thread(this::read, "failover-" + name);
            reader.setDaemon(true);
            reader.start();
        }

        static Replica start(Subject subject, Path kubeconfig, String namespace, String identity) throws Exception {
            List<String> command = subject.controllerRuntime()
                    ? List.of(ControllerRuntime.binary().toString(), "-scenario=operator", "-leader-elect",
                            "-kubeconfig=" + kubeconfig, "-namespace=" + namespace, "-identity=" + identity,
                            "-lease=failover", "-lease-duration=" + LEASE_DURATION.toSeconds() + "s",
                            "-renew-deadline=" + RENEW_DEADLINE.toSeconds() + "s",
                            "-retry-period=" + RETRY_PERIOD.toSeconds() + "s")
                    : Forks.command(List.of(), FailoverReplica.class, kubeconfig.toString(), namespace, "failover", identity);
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start(); // logs: lines not starting with {
            return new Replica(subject + " " + identity + " in " + namespace, process);
        }

        private void read() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("{")) {
                        events.add(ControllerRuntimeResult.parse(line));
                    } else {
                        synchronized (other) {
                            if (other.size() < 200) {
                                other.add(line);
                            }
                        }
                    }
                }
            } catch (IOException e) {
                // killed
            }
        }

        /** Waits for {@code event}; returns its wall-clock time. */
        Instant await(String event) throws InterruptedException {
            long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
            while (true) {
                ControllerRuntimeResult next = events.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (next == null) {
                    String output;
                    synchronized (other) {
                        output = String.join("\n", other);
                    }
                    throw new IllegalStateException(name + " printed no " + event + " within " + STEP_TIMEOUT
                            + (process.isAlive() ? "" : " (exited with " + process.exitValue() + ")") + ":\n" + output);
                }
                if (next.event().orElse("").equals(event)) {
                    long nanos = next.number("unixNanos");
                    return Instant.ofEpochSecond(nanos / 1_000_000_000L, nanos % 1_000_000_000L);
                }
            }
        }

        /** SIGKILL: no release of the Lease, no shutdown; returns when it was sent. */
        Instant kill() throws InterruptedException {
            Instant now = Instant.now();
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            return now;
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}

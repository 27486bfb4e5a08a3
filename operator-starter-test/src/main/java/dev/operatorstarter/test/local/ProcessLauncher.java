package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.internal.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import javax.net.ssl.SSLContext;

/**
 * Starts the control plane's programs under the supervisor, each with its log in the run's log
 * folder, and waits until they are ready. A wait fails fast, with the end of the process's log,
 * when the process exits; one that exits because a port was taken meanwhile fails with
 * {@link PortTakenException}, so that the start is tried again on new ports.
 */
final class ProcessLauncher {

    /** How long the supervisor lets etcd shut down after SIGTERM before it sends SIGKILL. */
    private static final Duration ETCD_SUPERVISOR_GRACE = Duration.ofSeconds(10);
    /**
     * The same for kube-apiserver and kube-controller-manager. They keep nothing of their own, and
     * when the JVM dies etcd gets its SIGTERM at the same moment, without which kube-apiserver cannot
     * finish its shutdown (it would sit out etcd's 10 s); with etcd up it takes 1 to 3 s.
     */
    private static final Duration STATELESS_SUPERVISOR_GRACE = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(100);

    /** How waiting for a process ended. */
    private enum Outcome {
        READY, EXITED, TIMED_OUT
    }

    private ProcessLauncher() {
    }

    /** Starts {@code binary} with {@code arguments} and adds it to {@code processes}. */
    static SupervisedProcess launch(List<SupervisedProcess> processes, LocalBinaries.Resolved binaries,
            Binary binary, RunLayout layout, List<String> arguments) throws IOException {
        return launch(processes, binaries.path(binary), binaries.supervisor(), binary, binary.fileName(), layout,
                arguments, Map.of());
    }

    /**
     * Starts the executable {@code path} of {@code binary} as the process {@code name} (also its
     * log's name), with {@code environment} added, and adds it to {@code processes}.
     */
    static SupervisedProcess launch(List<SupervisedProcess> processes, Path path, Optional<Path> supervisor,
            Binary binary, String name, RunLayout layout, List<String> arguments, Map<String, String> environment)
            throws IOException {
        List<String> command = new ArrayList<>();
        command.add(path.toString());
        command.addAll(arguments);
        SupervisedProcess process = SupervisedProcess.start(name, command, environment,
                layout.logs.resolve(name + ".log"), supervisor,
                binary == Binary.ETCD ? ETCD_SUPERVISOR_GRACE : STATELESS_SUPERVISOR_GRACE);
        processes.add(process);
        return process;
    }

    /** An HTTP client for the processes' own endpoints (health, etcd's API), as the client of {@code ssl}. */
    static HttpClient endpointClient(SSLContext ssl) {
        return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** Waits until {@code endpoint} answers 200. */
    static void awaitHealthy(SupervisedProcess process, HttpClient http, URI endpoint, long deadline) {
        awaitReady(process, endpoint.toString() + " to answer 200", deadline, () -> {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterStartException("interrupted while starting " + process.name(), e);
            }
        });
    }

    /** Waits for {@code condition}, failing fast with the process's log if it exits. */
    static void awaitReady(SupervisedProcess process, String what, long deadline, BooleanSupplier condition) {
        Duration remaining = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        Outcome outcome;
        IllegalStateException timeout = null;
        try {
            outcome = Await.until(what, remaining, POLL, () -> {
                if (!process.isAlive()) {
                    return Optional.of(Outcome.EXITED);
                }
                return condition.getAsBoolean() ? Optional.of(Outcome.READY) : Optional.empty();
            });
        } catch (IllegalStateException e) {
            outcome = Outcome.TIMED_OUT;
            timeout = e;
        }
        if (outcome == Outcome.READY) {
            return;
        }
        String tail = process.logTail(40);
        if (outcome == Outcome.EXITED && tail.contains("address already in use")) {
            throw new PortTakenException(process.name() + " could not bind a port that was free a moment earlier ("
                    + process.state() + "); last lines of " + process.logFile() + ":\n" + tail);
        }
        throw new ClusterStartException(process.name() + " did not become ready (" + process.state()
                + ") while waiting for " + what + "; last lines of " + process.logFile() + ":\n" + tail, timeout);
    }
}

package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.Injection;
import dev.operatorstarter.test.faults.RequestMatcher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The driver's handle on one subject: its {@link ChaosSubject} JVM, the {@link FaultProxy} it
 * reaches the API server through (so faults and request counts are its own), and its events.
 */
final class SubjectProcess implements AutoCloseable {

    private final Subject subject;
    private final FaultProxy proxy;
    private final String namespace;
    private final Path kubeconfig;
    private final Path eventsFile;
    private final EventLog events;
    private final Path directory;
    private final Injection lists;
    private final Injection streamingLists;
    private Process process;
    private Writer commands;
    private BlockingQueue<String> answers;
    private volatile @Nullable String stopped;
    private int snapshots;

    private SubjectProcess(Subject subject, FaultProxy proxy, String namespace, Path kubeconfig, Path events,
            Path directory, Injection lists, Injection streamingLists) {
        this.subject = subject;
        this.proxy = proxy;
        this.namespace = namespace;
        this.kubeconfig = kubeconfig;
        this.eventsFile = events;
        this.events = new EventLog(events);
        this.directory = directory;
        this.lists = lists;
        this.streamingLists = streamingLists;
    }

    /**
     * Starts a proxy in front of {@code upstream} and the subject's JVM behind it, authenticating
     * with {@code token}; its events file and log go to {@code directory}.
     */
    static SubjectProcess start(Subject subject, ClusterConnection upstream, String token, String namespace,
            Path directory) throws IOException {
        FaultProxy proxy = FaultProxy.start(upstream);
        try {
            String collection = "/api/v1/namespaces/" + namespace + "/configmaps";
            Injection lists = proxy.inject(RequestMatcher.pathMatching(collection).method("GET").excludingWatches(),
                    Fault.none());
            Injection streamingLists = proxy.inject(RequestMatcher.pathMatching(collection).method("GET").watchesOnly()
                    .queryParameter("sendInitialEvents", "true"), Fault.none());
            Path events = directory.resolve(name(subject) + ".events");
            Files.deleteIfExists(events);
            SubjectProcess started = new SubjectProcess(subject, proxy, namespace,
                    proxy.connectionWithToken(token).kubeconfig(), events, directory, lists, streamingLists);
            started.launch();
            return started;
        } catch (IOException | RuntimeException e) {
            proxy.close();
            throw e;
        }
    }

    private static String name(Subject subject) {
        return subject.name().toLowerCase(Locale.ROOT);
    }

    private void launch() throws IOException {
        process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-XX:+UseG1GC", "-cp", System.getProperty("java.class.path"), ChaosSubject.class.getName(), name(subject),
                namespace, kubeconfig.toString(), eventsFile.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(directory.resolve(name(subject) + ".log").toFile()))
                .start();
        commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        answers = new LinkedBlockingQueue<>();
        stopped = null;
        BlockingQueue<String> lines = answers;
        Process running = process;
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(running.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("stopped")) {
                        stopped = line.substring("stopped".length()).strip();
                    } else {
                        lines.add(line.strip());
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "answers-" + name(subject));
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Ends the subject's JVM and starts a fresh one (same proxy, same events file, which the new
     * informer's initial list continues), waiting until it has synced. The names heard of so far
     * are forgotten, since the new informer starts from the server's state.
     */
    void restart(Duration syncTimeout) throws IOException, InterruptedException {
        stopProcess();
        events.refresh().forgetNames();
        launch();
        awaitSynced(syncTimeout);
    }

    /** Why the informer stopped by itself, if it did (only fabric8's tells). */
    Optional<String> stopped() {
        return Optional.ofNullable(stopped);
    }

    Subject subject() {
        return subject;
    }

    FaultProxy proxy() {
        return proxy;
    }

    /** The events read so far; {@link EventLog#refresh()} reads more. */
    EventLog events() {
        return events;
    }

    /** Lists the subject made (paginated lists, and watches that stream the initial state). */
    long lists() {
        return lists.matched() + streamingLists.matched();
    }

    /** Waits until the subject prints that its cache has synced. */
    void awaitSynced(Duration timeout) throws InterruptedException {
        awaitAnswer("synced", timeout);
    }

    /** The subject's cache now: name to resourceVersion. */
    Map<String, Long> snapshot(Duration timeout) throws InterruptedException {
        Path file = directory.resolve(name(subject) + ".snapshot-" + (snapshots++ % 2));
        try {
            Files.deleteIfExists(file);
            commands.write("snapshot " + file + "\n");
            commands.flush();
            awaitAnswer("done", timeout);
            Map<String, Long> cache = new HashMap<>();
            for (String line : Files.readAllLines(file)) {
                String[] parts = line.split(" ");
                cache.put(parts[0], Long.parseLong(parts[1]));
            }
            return cache;
        } catch (IOException e) {
            throw new UncheckedIOException("snapshot of " + subject, e);
        }
    }

    private void awaitAnswer(String expected, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String answer = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (answer == null) {
                throw new IllegalStateException(subject + " did not answer '" + expected + "' within " + timeout
                        + (process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")"));
            }
            if (answer.equals(expected)) {
                return;
            }
        }
    }

    @Override
    public void close() {
        stopProcess();
        proxy.close();
    }

    private void stopProcess() {
        try {
            commands.write("exit\n");
            commands.flush();
        } catch (IOException e) {
            // it ended already
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

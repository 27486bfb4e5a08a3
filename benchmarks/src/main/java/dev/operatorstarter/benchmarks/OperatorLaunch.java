package dev.operatorstarter.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One launch of the sample operator as its own process: its console output goes to a log file and
 * through {@link StartupLog}, so the caller can wait for a milestone. {@link #close()} stops it as
 * the kubelet would, with SIGTERM, and kills it if it has not exited a minute later.
 */
final class OperatorLaunch implements AutoCloseable {

    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);

    private final Process process;
    private final Instant launched;
    private final Path log;
    private final Map<StartupLog.Milestone, Instant> seen = new EnumMap<>(StartupLog.Milestone.class);
    private final Map<StartupLog.Milestone, Duration> cpu = new EnumMap<>(StartupLog.Milestone.class);
    private @Nullable Thread reader;
    private boolean ended;
    private volatile boolean killed;

    private OperatorLaunch(Process process, Instant launched, Path log) {
        this.process = process;
        this.launched = launched;
        this.log = log;
    }

    /**
     * Starts {@code command} in {@code directory}; the launch time is taken just before the process
     * is created, on the wall clock that the operator's log timestamps use.
     *
     * @param site the site whose first reconcile counts, {@code namespace/name}
     */
    static OperatorLaunch start(List<String> command, Path directory, Path log, String site) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
        Instant launched = Instant.now();
        OperatorLaunch launch = new OperatorLaunch(builder.start(), launched, log);
        Thread reader = new Thread(() -> launch.read(site), "operator-log-" + launch.process.pid());
        reader.setDaemon(true);
        launch.reader = reader;
        reader.start();
        return launch;
    }

    Instant launched() {
        return launched;
    }

    /**
     * Waits until the log shows {@code milestone} and returns the time it took from launch.
     *
     * @throws IllegalStateException when the process ends first or {@code timeout} passes, with the log's path
     */
    synchronized Duration await(StartupLog.Milestone milestone, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!seen.containsKey(milestone)) {
            long left = deadline - System.nanoTime();
            if (ended) {
                throw new IllegalStateException("the operator's output ended before " + milestone + " (exit "
                        + (process.isAlive() ? "pending" : process.exitValue()) + "); see " + log);
            }
            if (left <= 0) {
                throw new IllegalStateException("no " + milestone + " within " + timeout + "; see " + log);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return Duration.between(launched, seen.get(milestone));
    }

    /**
     * The CPU time (user and system, all threads) the process had used when its log line of
     * {@code milestone} was read: less sensitive to other load on the machine than the wall time.
     * Zero where the platform does not report it. Call after {@link #await} returned for it.
     */
    synchronized Duration cpu(StartupLog.Milestone milestone) {
        return cpu.getOrDefault(milestone, Duration.ZERO);
    }

    private void read(String site) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                PrintWriter file = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                file.println(line);
                StartupLog.read(line, site).ifPresent(mark -> {
                    // the CPU time the process has used, read as soon as its line arrives
                    Duration used = process.toHandle().info().totalCpuDuration().orElse(Duration.ZERO);
                    synchronized (this) {
                        if (seen.putIfAbsent(mark.milestone(), mark.at()) == null) {
                            cpu.put(mark.milestone(), used);
                        }
                        notifyAll();
                    }
                });
            }
        } catch (IOException e) {
            if (!killed) { // destroyForcibly() closes the output under the reader: its end, no error
                throw new UncheckedIOException("reading the operator's output into " + log, e);
            }
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /**
     * SIGTERM, as in a pod; a forced kill if the process has not exited after a minute. Returns once
     * the log file has the whole output.
     */
    @Override
    public void close() throws InterruptedException {
        // The handle's destroy, not Process.destroy(), which also closes the output under the reader
        process.toHandle().destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            killed = true;
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
        Thread running = reader;
        if (running != null) {
            running.join(STOP_TIMEOUT.toMillis());
        }
    }
}

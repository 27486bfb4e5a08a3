package dev.operatorstarter.benchmarks;

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
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The driver's handle on one {@link ShardReplica} JVM ({@link Forks#command}'s JVM settings): asks
 * it for its status and heap on standard input and reads the answers from standard output; its
 * log (standard error) goes to a file. {@link #close()} tells it to exit and kills it if it has
 * not a few seconds later.
 */
final class ReplicaProcess implements AutoCloseable {

    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(30);

    private final String id;
    private final Process process;
    private final Writer commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final Path log;

    private ReplicaProcess(String id, Process process, Path log) {
        this.id = id;
        this.process = process;
        this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        this.log = log;
    }

    /** Launches member {@code id} of {@code ring}; see {@link ShardReplica} for the arguments. */
    static ReplicaProcess start(Path kubeconfig, String namespace, String ring, String id, Duration reconcileCost,
            int workers, Path log) throws IOException {
        Files.createDirectories(log.toAbsolutePath().getParent());
        Process process = new ProcessBuilder(Forks.command(List.of(), ShardReplica.class, kubeconfig.toString(),
                namespace, ring, id, String.valueOf(reconcileCost.toMillis()), String.valueOf(workers)))
                .redirectError(ProcessBuilder.Redirect.to(log.toFile())).start();
        ReplicaProcess replica = new ReplicaProcess(id, process, log);
        Thread reader = new Thread(replica::read, "replica-" + id);
        reader.setDaemon(true);
        reader.start();
        return replica;
    }

    String id() {
        return id;
    }

    private void read() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                answers.add(line.strip());
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Waits until the replica's manager started (its caches synced, its campaigns begun). */
    void awaitStarted(Duration timeout) throws InterruptedException {
        answer("started", timeout);
    }

    /** Its status now, with its reconciles of wave {@code wave}. */
    ReplicaStatus status(String wave) throws InterruptedException {
        return ReplicaStatus.parse(ask("status " + wave, "status "));
    }

    /** The heap it uses after a full GC, minus the same before its client was made. */
    long retainedHeap() throws InterruptedException {
        return Long.parseLong(ask("heap", "heap "));
    }

    private String ask(String command, String prefix) throws InterruptedException {
        try {
            commands.write(command + "\n");
            commands.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("replica " + id + " takes no command" + exited() + "; see " + log, e);
        }
        return answer(prefix, ANSWER_TIMEOUT).substring(prefix.length());
    }

    /** The next line that starts with {@code prefix}; lines before it are dropped. */
    private String answer(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = answers.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new IllegalStateException("replica " + id + " did not answer '" + prefix.strip() + "' within "
                        + timeout + exited() + "; see " + log);
            }
            if (line.equals("tainted")) {
                throw new IllegalStateException("replica " + id + "'s member Lease was taken; see " + log);
            }
            if (line.startsWith(prefix)) {
                return line;
            }
        }
    }

    private String exited() {
        return process.isAlive() ? "" : " (it exited with " + process.exitValue() + ")";
    }

    /** Tells it to exit; kills it if it has not exited 10 s later, or at once if interrupted (the flag stays set). */
    @Override
    public void close() {
        try {
            commands.write("exit\n");
            commands.flush();
        } catch (IOException e) {
            // it ended already
        }
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

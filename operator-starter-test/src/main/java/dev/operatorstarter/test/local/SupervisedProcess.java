package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Await;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * One server process (etcd, kube-apiserver, kube-controller-manager), started under the
 * supervisor when there is one. Output goes to a log file.
 *
 * <p>With the supervisor, the process lives exactly as long as the supervisor's standard input is
 * open: {@link #stop} closes it, and so does the kernel when the JVM dies, even by SIGKILL. The
 * supervisor then sends SIGTERM, and SIGKILL after the process's grace period.
 *
 * <p>Neither the supervisor nor the server is in the JVM's process group (the supervisor leaves it
 * itself; without a supervisor the server is started through {@code setsid} where there is one), so
 * a terminal's Ctrl-C, which signals the whole foreground group, reaches only the JVM: the server
 * keeps serving until the JVM stops it, after the application that uses it.
 */
final class SupervisedProcess {

    /**
     * util-linux's {@code setsid}, which runs a command in a session (and process group) of its own;
     * not on macOS.
     */
    private static final Optional<Path> SETSID = Stream.of("/usr/bin/setsid", "/bin/setsid")
            .map(Path::of).filter(Files::isExecutable).findFirst();

    private final String name;
    private final Process process;
    private final Path logFile;
    private final @Nullable OutputStream lifeline;
    private final Duration supervisorGrace;

    private SupervisedProcess(String name, Process process, Path logFile, @Nullable OutputStream lifeline,
            Duration supervisorGrace) {
        this.name = name;
        this.process = process;
        this.logFile = logFile;
        this.lifeline = lifeline;
        this.supervisorGrace = supervisorGrace;
    }

    /**
     * Starts {@code command}; under the supervisor, {@code supervisorGrace} is how long the process
     * may take to exit after the supervisor's SIGTERM before it gets SIGKILL.
     */
    static SupervisedProcess start(String name, List<String> command, Path logFile, Optional<Path> supervisor,
            Duration supervisorGrace) throws IOException {
        return start(name, command, Map.of(), logFile, supervisor, supervisorGrace);
    }

    /** As above, with {@code environment} added to the JVM's environment for the process. */
    static SupervisedProcess start(String name, List<String> command, Map<String, String> environment, Path logFile,
            Optional<Path> supervisor, Duration supervisorGrace) throws IOException {
        List<String> full = new ArrayList<>();
        supervisor.ifPresentOrElse(s -> {
            full.add(s.toString());
            full.add("-grace");
            full.add(supervisorGrace.toMillis() + "ms");
            full.add("--");
        }, () -> SETSID.ifPresent(setsid -> full.add(setsid.toString())));
        full.addAll(command);
        ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        OutputStream lifeline = supervisor.isPresent() ? process.getOutputStream() : null;
        if (lifeline == null) {
            process.getOutputStream().close();
        }
        return new SupervisedProcess(name, process, logFile, lifeline, supervisorGrace);
    }

    String name() {
        return name;
    }

    Path logFile() {
        return logFile;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The pid of the server itself (the supervisor's child when supervised). */
    long serverPid() {
        if (lifeline == null) {
            return process.pid();
        }
        return Await.until("the " + name + " process under its supervisor", Duration.ofSeconds(10),
                Duration.ofMillis(20), () -> {
                    if (!process.isAlive()) {
                        throw new Await.Abort(name + "'s supervisor exited with code " + process.exitValue());
                    }
                    return process.toHandle().children().findFirst().map(ProcessHandle::pid);
                });
    }

    /** The pid of the process the JVM started: the supervisor, or the server when unsupervised. */
    long launcherPid() {
        return process.pid();
    }

    /** "exited with code N" or "is still running", for error messages. */
    String state() {
        return process.isAlive() ? "is still running" : "exited with code " + process.exitValue();
    }

    String logTail(int lines) {
        return LogTail.of(logFile, lines);
    }

    /** Stops the process: SIGTERM, then SIGKILL after {@code grace}. Returns once it has exited. */
    void stop(Duration grace) {
        if (!process.isAlive()) {
            return;
        }
        try {
            if (lifeline != null) {
                try {
                    lifeline.close();
                } catch (IOException ignored) {
                    // the pipe is already broken: the supervisor is exiting anyway
                }
                if (process.waitFor(grace.plus(supervisorGrace).toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } else {
                process.destroy();
                if (process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}

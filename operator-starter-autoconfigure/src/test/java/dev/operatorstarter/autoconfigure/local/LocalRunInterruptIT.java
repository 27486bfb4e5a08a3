package dev.operatorstarter.autoconfigure.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on a local run ({@code mvn spring-boot:test-run}, {@code exec:java}) as a terminal gives
 * it: SIGINT to every process of the foreground process group. The operator stops first, its
 * leader Lease released while the API server still serves, then the server; no request meets a
 * server that is going away, and the JVM exits with status 130, which the Spring Boot Maven
 * plugin counts as a success. The run is a child JVM in a process group of its own, which the
 * test signals as the terminal would.
 */
class LocalRunInterruptIT {

    /** 128 + SIGINT: the JVM's status when a SIGINT ends it; spring-boot:run/test-run take it (and 0) as success. */
    private static final int INTERRUPTED = 130;

    @Test
    void ctrlCStopsTheOperatorFirstThenTheApiServerAndExitsCleanly(@TempDir Path temporary)
            throws IOException, InterruptedException {
        Path log = temporary.resolve("local-run.log");
        // a temporary folder of its own: the server's run folder lands there, so that what is left
        // of it afterwards can be told from the servers of other JVMs
        Path tmp = Files.createDirectories(temporary.resolve("tmp"));
        Process run = new ProcessBuilder(command(tmp)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            try {
                await("the local run to lead and start its controller").atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(200))
                        .failFast("the local run ended", () -> !run.isAlive())
                        .until(() -> read(log).contains("became the leader") && read(log).contains("widget: started with"));
            } catch (ConditionTimeoutException | TerminalFailureException e) {
                throw new AssertionError(e.getMessage() + "; its log:\n" + read(log), e);
            }

            signalProcessGroup("INT", run.pid()); // what Ctrl-C does: the JVM and everything it started in its group

            assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the run ended after Ctrl-C").isTrue();
        } finally {
            run.destroyForcibly();
        }
        String output = read(log);
        assertThat(run.exitValue()).as("exit status, log:%n%s", output).isEqualTo(INTERRUPTED);
        int released = output.indexOf(": released lease ");
        int stopping = output.indexOf("Stopping the local API server at ");
        assertThat(released).as("the Lease released, log:%n%s", output).isNotNegative();
        assertThat(stopping).as("the local API server stopped by the run, log:%n%s", output).isNotNegative();
        assertThat(released).as("the Lease released before the API server stops, log:%n%s", output)
                .isLessThan(stopping);
        assertThat(output.indexOf("operator stopped")).as("the operator stopped before the API server, log:%n%s", output)
                .isNotNegative().isLessThan(stopping);
        assertThat(output).contains("Local API server at ").doesNotContain("prematurely closed")
                .doesNotContain("cannot release").doesNotContain("Connection refused");
        await("the server processes to be gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .until(() -> ProcessHandle.allProcesses().noneMatch(process -> process.info().arguments()
                        .map(arguments -> String.join(" ", arguments).contains(tmp.toString())).orElse(false)));
    }

    /**
     * The local run's JVM, in a session and process group of its own ({@code setsid}), with SIGINT
     * at its default even when this JVM ignores it (a build started in the background by a
     * non-interactive shell does): a JVM started with SIGINT ignored keeps ignoring it.
     */
    private static List<String> command(Path tmp) {
        assumeThat(Path.of("/usr/bin/setsid")).as("setsid (util-linux) to give the run a process group").isExecutable();
        List<String> command = new ArrayList<>(List.of("/usr/bin/setsid"));
        if (envResetsSignals()) {
            command.addAll(List.of("env", "--default-signal=INT"));
        } else {
            assumeThat(sigintIgnoredHere()).as("SIGINT ignored here, and no env --default-signal to undo it").isFalse();
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + tmp,
                "-cp", System.getProperty("java.class.path")));
        for (String property : List.of("operator.test.cache-dir", "operator.test.binary-dir")) {
            if (System.getProperty(property) != null) {
                command.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        command.addAll(List.of(LocalWidgetOperator.class.getName(), "--spring.main.web-application-type=none",
                // no web server to keep the JVM running: a thread of Spring's does, until the Ctrl-C
                "--spring.main.keep-alive=true",
                "--spring.application.name=local-run-interrupt", "--operator.informers.namespaces=default"));
        return command;
    }

    /** Sends {@code signal} to the process group {@code pgid}, as {@code kill -INT -<pgid>}. */
    private static void signalProcessGroup(String signal, long pgid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).as("kill -%s -%d", signal, pgid).isTrue();
    }

    private static boolean envResetsSignals() {
        try {
            Process probe = new ProcessBuilder("env", "--default-signal=INT", "true").redirectErrorStream(true).start();
            return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether this JVM was started with SIGINT ignored (Linux: /proc/self/status). */
    private static boolean sigintIgnoredHere() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseLong(line.substring("SigIgn:".length()).trim(), 16) & 0b10) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: assume the default
        }
        return false;
    }

    private static String read(Path log) throws IOException {
        return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
    }
}

package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.internal.Await;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Starting, stopping and crashing the local API server's processes. */
class LocalApiServerLifecycleIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(100);

    private static LocalBinaries.Resolved binaries;

    @BeforeAll
    static void buildOrFindTheBinaries() {
        // Built (or found) here, so that the child JVM below only starts processes.
        binaries = new LocalBinaries(LocalApiServerOptions.defaults(), System.getenv()).resolve();
    }

    @Test
    void closeStopsEveryProcessAndDeletesItsData() {
        LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
        Map<String, Long> pids = server.processIds();
        Path run = server.runDirectory();

        server.close();

        assertThat(pids).containsOnlyKeys("etcd", "kube-apiserver", "kube-controller-manager");
        pids.values().forEach(pid -> assertThat(alive(pid)).as("process %d after close", pid).isFalse());
        assertThat(run).doesNotExist();
    }

    @Test
    void nodesAddTheirProcessesToARunningServerAndCloseStopsThemToo() {
        LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
        List<String> nodes = server.ensureNodes(2);
        List<String> more = server.ensureNodes(3);
        Map<String, Long> pids = server.processIds();

        server.close();

        assertThat(nodes).containsExactly("kwok-node-0", "kwok-node-1");
        assertThat(more).containsExactly("kwok-node-0", "kwok-node-1", "kwok-node-2");
        assertThat(pids).containsOnlyKeys("etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler",
                "kube-controller-manager-workloads", "kwok");
        pids.values().forEach(pid -> assertThat(alive(pid)).as("process %d after close", pid).isFalse());
    }

    @Test
    void aJvmKilledWithSigkillLeavesNoServerProcessBehind(@TempDir Path temporary) throws IOException {
        // A temporary folder of its own: a server starting meanwhile in another JVM (the other IT
        // fork) sweeps abandoned runs from the shared one, and would take this run before we look.
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + temporary, "-cp", System.getProperty("java.class.path")));
        passThrough(command, LocalApiServerOptions.CACHE_DIR_PROPERTY);
        passThrough(command, LocalApiServerOptions.BINARY_DIR_PROPERTY);
        command.add(LocalApiServerMain.class.getName());
        Process jvm = new ProcessBuilder(command).redirectErrorStream(true).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> copyLines(jvm, lines), "child-jvm-output");
        reader.setDaemon(true);
        reader.start();
        List<Long> pids;
        List<Long> supervisors;
        AtomicReference<String> kubeconfig = new AtomicReference<>();
        try {
            String pidLine = Await.until("the child JVM to report its server processes", Duration.ofMinutes(2), POLL,
                    () -> {
                        // drain everything printed since the last poll, not one line per poll
                        for (String line = lines.poll(); line != null; line = lines.poll()) {
                            if (line.startsWith("kubeconfig: ")) {
                                kubeconfig.set(line.substring("kubeconfig: ".length()));
                            }
                            if (line.startsWith("pids: ")) {
                                return Optional.of(line);
                            }
                        }
                        return Optional.empty();
                    });
            pids = parsePids(pidLine);
            supervisors = pids.stream().map(pid -> ProcessHandle.of(pid).flatMap(ProcessHandle::parent)
                    .map(ProcessHandle::pid).orElse(-1L)).toList();
        } catch (RuntimeException e) {
            jvm.destroyForcibly();
            throw e;
        }

        assertThat(pids).hasSize(3).allMatch(LocalApiServerLifecycleIT::alive, "alive before the kill");

        Path run = Path.of(kubeconfig.get()).getParent();
        jvm.destroyForcibly(); // SIGKILL: no shutdown hook runs

        Await.condition("etcd, kube-apiserver and kube-controller-manager to exit after their JVM was killed",
                TIMEOUT, POLL, () -> pids.stream().noneMatch(LocalApiServerLifecycleIT::alive));
        Await.condition("the supervisors to exit", TIMEOUT, POLL,
                () -> supervisors.stream().noneMatch(LocalApiServerLifecycleIT::alive));
        Await.condition("the killed JVM to be gone", TIMEOUT, POLL, () -> !jvm.isAlive());

        assertThat(run).as("the killed JVM's run folder").exists();
        RunFolder.sweepAbandoned(run.getParent());
        assertThat(run).as("swept by the next start").doesNotExist();
    }

    @Test
    void aServerThatFailsToStartIsReportedWithTheEndOfItsLog(@TempDir Path fakeBinaries) throws IOException {
        Files.createSymbolicLink(fakeBinaries.resolve("etcd"), binaries.path(Binary.ETCD));
        Files.createSymbolicLink(fakeBinaries.resolve("kube-controller-manager"),
                binaries.path(Binary.KUBE_CONTROLLER_MANAGER));
        Path apiserver = fakeBinaries.resolve("kube-apiserver");
        Files.writeString(apiserver, "#!/bin/sh\necho 'starting up'\necho 'E1122 invalid flag --nonsense: boom' >&2\nexit 3\n");
        Files.setPosixFilePermissions(apiserver, PosixFilePermissions.fromString("rwxr-xr-x"));
        LocalApiServerOptions options = LocalApiServerOptions.builder().binaryDirectory(fakeBinaries).build();

        assertThatThrownBy(() -> LocalApiServer.start(options))
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("kube-apiserver did not become ready")
                .hasMessageContaining("exited with code 3")
                .hasMessageContaining("E1122 invalid flag --nonsense: boom");
    }

    private static void passThrough(List<String> command, String property) {
        String value = System.getProperty(property);
        if (value != null) {
            command.add("-D" + property + "=" + value);
        }
    }

    private static void copyLines(Process process, BlockingQueue<String> lines) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
            }
        } catch (IOException ignored) {
            // the process was killed
        }
    }

    private static List<Long> parsePids(String line) {
        List<Long> pids = new ArrayList<>();
        Matcher matcher = Pattern.compile("=(\\d+)").matcher(line);
        while (matcher.find()) {
            pids.add(Long.parseLong(matcher.group(1)));
        }
        return pids;
    }

    /** Running, and not a zombie that nobody has reaped yet (the JDK counts zombies as alive). */
    private static boolean alive(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return true; // no /proc (not Linux): trust the JDK
        }
    }
}

package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.ClusterStartException;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The Go toolchain that compiles the local API server's binaries from the wrapper modules. */
final class GoToolchain {

    /** Static binaries that run on any Linux, the way Kubernetes releases them. */
    private static final java.util.Map<String, String> ENVIRONMENT = java.util.Map.of("CGO_ENABLED", "0");

    private static final Logger log = LoggerFactory.getLogger(GoToolchain.class);

    private final Path go;
    private final Duration buildTimeout;

    GoToolchain(Path go, Duration buildTimeout) {
        this.go = go;
        this.buildTimeout = buildTimeout;
    }

    Path command() {
        return go;
    }

    /**
     * Finds {@code go}: on the {@code PATH}, then in {@code $GOROOT/bin}, then in
     * {@code /usr/local/go/bin} (the official installer's location).
     */
    static Optional<Path> locate(Map<String, String> environment) {
        String exe = System.getProperty("os.name", "").startsWith("Windows") ? "go.exe" : "go";
        List<Path> candidates = new ArrayList<>();
        String path = environment.get("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isBlank()) {
                    candidates.add(Path.of(dir, exe));
                }
            }
        }
        String goroot = environment.get("GOROOT");
        if (goroot != null && !goroot.isBlank()) {
            candidates.add(Path.of(goroot, "bin", exe));
        }
        candidates.add(Path.of("/usr/local/go/bin", exe));
        return candidates.stream().filter(p -> Files.isRegularFile(p) && Files.isExecutable(p)).findFirst();
    }

    /** The build command for one binary. */
    private static List<String> command(String go, Binary binary, String buildDate, String output) {
        return List.of(go, "build", "-trimpath", "-ldflags", binary.ldflags(buildDate), "-o", output,
                binary.goPackage());
    }

    /**
     * How {@code binaries} are built (commands and environment, without the machine-specific Go
     * path, date and output folder), so the cache key changes when the recipe does.
     */
    static String recipe(List<Binary> binaries) {
        StringBuilder recipe = new StringBuilder(ENVIRONMENT.toString());
        for (Binary binary : binaries) {
            recipe.append('\n').append(String.join(" ", command("go", binary, "DATE", "OUT")));
        }
        return recipe.toString();
    }

    /** Compiles {@code binaries} into {@code output}, logging to {@code output/build.log}. */
    void build(List<Binary> binaries, Path output) throws IOException {
        Path sources = output.resolve("src");
        Path buildLog = output.resolve("build.log");
        String buildDate = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        for (Binary binary : binaries) {
            Path moduleDir = sources.resolve(binary.module().directory());
            if (!Files.exists(moduleDir)) {
                binary.module().extractTo(moduleDir);
            }
            List<String> command = command(go.toString(), binary, buildDate, output.resolve(binary.fileName()).toString());
            log.info("Building {} with {} (first use of this version: several minutes)", binary.fileName(), go);
            Files.writeString(buildLog, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command).directory(moduleDir.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(buildLog.toFile()));
            builder.environment().putAll(ENVIRONMENT);
            long started = System.nanoTime();
            Process process = builder.start();
            // A JVM that exits mid-build (a local run that ended, Ctrl-C) takes the build with it: no
            // compiler outlives it, and the entry's .partial folder is cleared by the next build.
            Thread stopBuild = new Thread(() -> {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
            }, "stop-go-build-" + binary.fileName());
            Runtime.getRuntime().addShutdownHook(stopBuild);
            try {
                awaitBuild(process, binary, buildLog);
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(stopBuild);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs or has run
                }
            }
            if (process.exitValue() != 0) {
                throw new ClusterStartException("go build of " + binary.fileName() + " failed with exit code "
                        + process.exitValue() + "; last lines of " + buildLog + ":\n" + LogTail.of(buildLog, 40));
            }
            log.info("Built {} in {} s", binary.fileName(), Duration.ofNanos(System.nanoTime() - started).toSeconds());
        }
        Folders.deleteRecursively(sources);
    }

    /** Waits for {@code process} within the build timeout; kills it on timeout or interrupt. */
    private void awaitBuild(Process process, Binary binary, Path buildLog) {
        try {
            if (!process.waitFor(buildTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new ClusterStartException("go build of " + binary.fileName() + " did not finish within "
                        + buildTimeout + "; last lines of " + buildLog + ":\n" + LogTail.of(buildLog, 30));
            }
        } catch (InterruptedException e) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new ClusterStartException("interrupted while building " + binary.fileName(), e);
        }
    }
}

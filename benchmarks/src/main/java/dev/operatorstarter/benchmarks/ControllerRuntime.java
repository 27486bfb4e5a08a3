package dev.operatorstarter.benchmarks;

import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * controller-runtime as a benchmark subject: the Go program under {@code src/main/go/controller-runtime}
 * (shipped in this module's jar), built with {@code go build} on first use into the same cache folder
 * as the local API server's binaries ({@link LocalApiServerOptions#cacheDirectory()}), one entry per
 * pinned version and source fingerprint. As there, an entry is built in a {@code .partial-*} folder,
 * renamed into place once complete, checked against the SHA-256 in its manifest before use, and its
 * build is serialised across JVMs by a file lock. (The harness's own {@code GoToolchain} and
 * {@code BinaryCache} are private to {@code operator-starter-test}'s {@code local} package and tied
 * to its binaries, so this repeats their conventions in a few lines rather than widening that API.)
 */
final class ControllerRuntime {

    /** The program's file name, in the cache entry. */
    static final String FILE = "controller-runtime-bench";
    /** The wrapper module's files, read from the jar. */
    static final List<String> SOURCES = List.of("go.mod", "go.sum", "main.go", "informer.go", "watch.go", "latency.go",
            "operator.go", "priority.go", "priority_trace.go");
    /** How the program is built: static, stripped, as the harness builds its binaries. */
    static final List<String> BUILD = List.of("build", "-trimpath", "-ldflags", "-s -w", "-o");
    private static final Map<String, String> BUILD_ENVIRONMENT = Map.of("CGO_ENABLED", "0");
    private static final String RESOURCES = "dev/operatorstarter/benchmarks/go/controller-runtime/";
    private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(30);
    private static final Logger log = LoggerFactory.getLogger(ControllerRuntime.class);

    private ControllerRuntime() {
    }

    /** The controller-runtime version the wrapper module pins, for example {@code v0.25.2}. */
    static String version() {
        return version(new String(read("go.mod"), StandardCharsets.UTF_8));
    }

    /** The version of {@code sigs.k8s.io/controller-runtime} that {@code goMod} requires. */
    static String version(String goMod) {
        Matcher matcher = Pattern.compile("(?m)^\\s*(?:require\\s+)?sigs\\.k8s\\.io/controller-runtime\\s+(v\\S+)")
                .matcher(goMod);
        if (!matcher.find()) {
            throw new IllegalStateException(RESOURCES + "go.mod does not require sigs.k8s.io/controller-runtime");
        }
        return matcher.group(1);
    }

    /** How the reports name it. */
    static String label() {
        return "controller-runtime " + version();
    }

    /**
     * The cache entry's name: the program, the pinned version, the platform and a fingerprint of
     * the build recipe and every source file, so any change to either builds a new entry.
     */
    static String cacheKey() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update((BUILD + " " + BUILD_ENVIRONMENT).getBytes(StandardCharsets.UTF_8));
            for (String source : SOURCES) {
                digest.update(source.getBytes(StandardCharsets.UTF_8));
                digest.update(read(source));
            }
            return FILE + "-" + version() + "_" + platform() + "_" + HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The built program, from the cache or built into it now (several minutes the first time). */
    static Path binary() throws IOException, InterruptedException {
        Path root = LocalApiServerOptions.defaults().cacheDirectory();
        String key = cacheKey();
        Path entry = root.resolve(key);
        if (intact(entry)) {
            return entry.resolve(FILE);
        }
        Files.createDirectories(root);
        try (FileChannel channel = FileChannel.open(root.resolve(".lock-" + key), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
            if (!intact(entry)) {
                build(root, key, entry);
            }
        }
        return entry.resolve(FILE);
    }

    /** Whether {@code entry} holds the program with the size and SHA-256 its manifest names. */
    static boolean intact(Path entry) throws IOException {
        Path manifest = entry.resolve("manifest");
        Path program = entry.resolve(FILE);
        return Files.isRegularFile(manifest) && Files.isExecutable(program)
                && Files.readString(manifest).strip().equals(fingerprint(program));
    }

    private static String fingerprint(Path program) throws IOException {
        try (InputStream in = Files.newInputStream(program)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[1 << 16];
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                digest.update(buffer, 0, read);
            }
            return Files.size(program) + ":" + HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void build(Path root, String key, Path entry) throws IOException, InterruptedException {
        Path go = go(System.getenv()).orElseThrow(() -> new IllegalStateException("controller-runtime's benchmark "
                + "program is not in the cache (" + root + ") and no go command was found on the PATH, in $GOROOT/bin "
                + "or /usr/local/go/bin to build it"));
        if (Files.exists(entry)) {
            deleteRecursively(entry);
        }
        Path partial = Files.createTempDirectory(root, ".partial-" + key + "-");
        Path sources = partial.resolve("src");
        Files.createDirectories(sources);
        for (String source : SOURCES) {
            Files.write(sources.resolve(source), read(source));
        }
        List<String> command = command(go, partial.resolve(FILE));
        Path buildLog = partial.resolve("build.log");
        log.info("building {} with {} (first use of this version: a few minutes)", label(), go);
        ProcessBuilder builder = new ProcessBuilder(command).directory(sources.toFile()).redirectErrorStream(true)
                .redirectOutput(buildLog.toFile());
        builder.environment().putAll(BUILD_ENVIRONMENT);
        Process process = builder.start();
        if (!process.waitFor(BUILD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new IllegalStateException("go build of " + FILE + " did not finish within " + BUILD_TIMEOUT + "; see "
                    + buildLog);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("go build of " + FILE + " failed with exit code " + process.exitValue()
                    + " (" + String.join(" ", command) + "):\n" + Files.readString(buildLog));
        }
        deleteRecursively(sources);
        Files.writeString(partial.resolve("manifest"), fingerprint(partial.resolve(FILE)) + "\n");
        try {
            Files.move(partial, entry, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(partial, entry);
        }
    }

    /** The build command, run in the module's folder. */
    static List<String> command(Path go, Path output) {
        List<String> command = new ArrayList<>();
        command.add(go.toString());
        command.addAll(BUILD);
        command.add(output.toString());
        command.add(".");
        return command;
    }

    /** {@code go}: on the {@code PATH}, then in {@code $GOROOT/bin}, then in {@code /usr/local/go/bin}. */
    static Optional<Path> go(Map<String, String> environment) {
        List<Path> candidates = new ArrayList<>();
        String path = environment.get("PATH");
        if (path != null) {
            for (String folder : path.split(File.pathSeparator)) {
                if (!folder.isBlank()) {
                    candidates.add(Path.of(folder, "go"));
                }
            }
        }
        String goroot = environment.get("GOROOT");
        if (goroot != null && !goroot.isBlank()) {
            candidates.add(Path.of(goroot, "bin", "go"));
        }
        candidates.add(Path.of("/usr/local/go/bin/go"));
        return candidates.stream().filter(candidate -> Files.isRegularFile(candidate) && Files.isExecutable(candidate))
                .findFirst();
    }

    private static String platform() {
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).split(" ")[0];
        return os + "-" + (arch.equals("x86_64") ? "amd64" : arch);
    }

    static byte[] read(String source) {
        try (InputStream in = ControllerRuntime.class.getClassLoader().getResourceAsStream(RESOURCES + source)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCES + source + " (is the benchmarks jar complete?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + RESOURCES + source, e);
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}

package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.ClusterStartException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A folder of built binaries, one sub-folder (entry) per key. An entry is complete only when its
 * {@code manifest.properties} lists every binary with its size and SHA-256; entries are built in a
 * {@code .partial-*} folder and renamed into place, so a build killed half-way never looks done,
 * and an entry whose files no longer match their manifest is deleted and rebuilt.
 *
 * <p>The builds of one entry are serialised across JVMs by a file lock on {@code .lock-<key>} in
 * the cache root (and within one JVM by a monitor per entry, since file locks are per process);
 * different entries build side by side.
 */
final class BinaryCache {

    private static final Logger log = LoggerFactory.getLogger(BinaryCache.class);
    private static final String MANIFEST = "manifest.properties";

    /** Builds the binaries of an entry into a folder. */
    @FunctionalInterface
    interface Builder {
        void build(Path outputDirectory) throws IOException;
    }

    /**
     * One monitor per entry folder for the whole JVM: a file lock is held by the process, so two
     * threads of one JVM must not both try to take it (the second would fail, not wait).
     */
    private static final ConcurrentHashMap<Path, Object> ENTRY_MONITORS = new ConcurrentHashMap<>();

    private final Path root;

    BinaryCache(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    /**
     * The folder of entry {@code key} holding {@code files}, built with {@code builder} unless a
     * complete, intact entry is already there.
     */
    Path obtain(String key, Collection<String> files, Builder builder) {
        Path entry = root.resolve(key);
        if (verify(entry, files).isEmpty()) {
            return entry;
        }
        synchronized (ENTRY_MONITORS.computeIfAbsent(entry.toAbsolutePath().normalize(), path -> new Object())) {
            try {
                Files.createDirectories(root);
                try (FileChannel channel = FileChannel.open(root.resolve(".lock-" + key), StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE)) {
                    FileLock lock = channel.tryLock();
                    if (lock == null) {
                        log.info("Waiting for another process that builds {} into {}", key, root);
                        lock = channel.lock();
                    }
                    try {
                        return buildLocked(key, entry, files, builder);
                    } finally {
                        lock.release();
                    }
                }
            } catch (IOException e) {
                throw new ClusterStartException("cannot prepare the binary cache " + root + ": " + e.getMessage(), e);
            }
        }
    }

    /** Builds the entry; the caller holds the cache lock. */
    private Path buildLocked(String key, Path entry, Collection<String> files, Builder builder) throws IOException {
        // Another JVM may have finished the entry while we waited for the lock.
        Optional<String> problem = verify(entry, files);
        if (problem.isEmpty()) {
            return entry;
        }
        if (Files.exists(entry)) {
            log.warn("Cached binaries in {} are unusable ({}); rebuilding them", entry, problem.get());
            Folders.deleteRecursively(entry);
        }
        removeAbandonedBuilds(key);
        Path partial = Files.createTempDirectory(root, ".partial-" + key + "-");
        try {
            builder.build(partial);
        } catch (IOException e) {
            throw new ClusterStartException("building the binaries for " + key + " failed: " + e.getMessage()
                    + " (partial output kept in " + partial + ")", e);
        }
        writeManifest(partial, files);
        move(partial, entry);
        Optional<String> after = verify(entry, files);
        if (after.isPresent()) {
            throw new ClusterStartException("binaries built into " + entry + " fail verification: " + after.get());
        }
        return entry;
    }

    /** Empty when the entry is complete and intact; otherwise what is wrong with it. */
    Optional<String> verify(Path entry, Collection<String> files) {
        Path manifestFile = entry.resolve(MANIFEST);
        if (!Files.isRegularFile(manifestFile)) {
            return Optional.of(Files.exists(entry) ? "no " + MANIFEST + " (an interrupted build?)" : "not built yet");
        }
        Properties manifest = new Properties();
        try (InputStream in = Files.newInputStream(manifestFile)) {
            manifest.load(in);
        } catch (IOException | IllegalArgumentException e) {
            return Optional.of(MANIFEST + " is unreadable: " + e.getMessage());
        }
        for (String file : files) {
            String expected = manifest.getProperty(file);
            Path path = entry.resolve(file);
            if (expected == null) {
                return Optional.of(MANIFEST + " does not list " + file);
            }
            if (!Files.isRegularFile(path)) {
                return Optional.of(file + " is missing");
            }
            try {
                String actual = Files.size(path) + ":" + sha256(path);
                if (!expected.equals(actual)) {
                    return Optional.of(file + " does not match its manifest (size:sha256 " + actual + ", expected " + expected + ")");
                }
            } catch (IOException e) {
                return Optional.of(file + " is unreadable: " + e.getMessage());
            }
            if (!Files.isExecutable(path)) {
                return Optional.of(file + " is not executable");
            }
        }
        return Optional.empty();
    }

    private static void writeManifest(Path directory, Collection<String> files) throws IOException {
        StringBuilder manifest = new StringBuilder("# size:sha256 of each binary, written after a complete build\n");
        for (String file : files) {
            Path path = directory.resolve(file);
            if (!Files.isRegularFile(path)) {
                throw new ClusterStartException("the build did not produce " + path);
            }
            manifest.append(file).append('=').append(Files.size(path)).append(':').append(sha256(path)).append('\n');
        }
        Files.writeString(directory.resolve(MANIFEST), manifest);
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to);
        }
    }

    /** Removes the partial folders of {@code key}'s earlier builds; the caller holds its lock, so none is running. */
    private void removeAbandonedBuilds(String key) throws IOException {
        try (DirectoryStream<Path> partials = Files.newDirectoryStream(root, ".partial-" + key + "-*")) {
            for (Path partial : partials) {
                log.info("Removing abandoned build folder {}", partial);
                Folders.deleteRecursively(partial);
            }
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

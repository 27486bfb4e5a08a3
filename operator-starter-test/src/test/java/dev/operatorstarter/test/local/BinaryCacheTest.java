package dev.operatorstarter.test.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.internal.Await;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BinaryCacheTest {

    private static final List<String> FILES = List.of("etcd", "kube-apiserver");

    @TempDir
    Path root;

    private final AtomicInteger builds = new AtomicInteger();

    private final BinaryCache.Builder builder = output -> {
        builds.incrementAndGet();
        for (String file : FILES) {
            Path path = output.resolve(file);
            Files.writeString(path, "binary " + file);
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    };

    @Test
    void aCompleteEntryIsBuiltOnceAndReused() {
        Path first = new BinaryCache(root).obtain("k1", FILES, builder);
        Path second = new BinaryCache(root).obtain("k1", FILES, builder);

        assertThat(first).isEqualTo(second).isEqualTo(root.resolve("k1"));
        assertThat(builds).hasValue(1);
        assertThat(first.resolve("manifest.properties")).exists();
    }

    @Test
    void aBinaryThatNoLongerMatchesItsManifestIsDetectedAndRebuilt() throws IOException {
        BinaryCache cache = new BinaryCache(root);
        Path entry = cache.obtain("k1", FILES, builder);
        Files.writeString(entry.resolve("kube-apiserver"), "truncated");

        assertThat(cache.verify(entry, FILES)).hasValueSatisfying(
                problem -> assertThat(problem).contains("kube-apiserver does not match its manifest"));
        cache.obtain("k1", FILES, builder);

        assertThat(builds).hasValue(2);
        assertThat(entry.resolve("kube-apiserver")).hasContent("binary kube-apiserver");
    }

    @Test
    void anEntryWithoutManifestIsTreatedAsAnInterruptedBuild() throws IOException {
        Path entry = Files.createDirectories(root.resolve("k1"));
        Files.writeString(entry.resolve("etcd"), "half written");
        Path abandoned = Files.createDirectories(root.resolve(".partial-k1-123"));
        BinaryCache cache = new BinaryCache(root);

        assertThat(cache.verify(entry, FILES)).hasValueSatisfying(
                problem -> assertThat(problem).contains("interrupted build"));
        cache.obtain("k1", FILES, builder);

        assertThat(builds).hasValue(1);
        assertThat(abandoned).doesNotExist();
        assertThat(cache.verify(entry, FILES)).isEmpty();
    }

    @Test
    void aFailedBuildLeavesNoEntryBehind() {
        BinaryCache cache = new BinaryCache(root);
        BinaryCache.Builder failing = output -> {
            Files.writeString(output.resolve("etcd"), "only one of two");
            throw new IOException("compiler crashed");
        };

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> cache.obtain("k1", FILES, failing))
                .hasMessageContaining("compiler crashed");

        assertThat(root.resolve("k1")).doesNotExist();
        cache.obtain("k1", FILES, builder);
        assertThat(builds).hasValue(1);
    }

    @Test
    void anotherJvmHoldsTheCacheLockForAsLongAsItBuilds() throws Exception {
        Process other = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), BinaryCacheBuildingProcess.class.getName(),
                root.toString()).redirectErrorStream(true).redirectOutput(root.resolve("other.log").toFile()).start();
        try {
            Await.condition("the other JVM to start building", Duration.ofSeconds(60), Duration.ofMillis(20),
                    () -> Files.exists(root.resolve("building")) || !other.isAlive());
            assertThat(other.isAlive()).as("the other JVM is building").isTrue();

            boolean lockedWhileBuilding = heldByAnotherProcess(root.resolve(".lock-k1"));
            // Started while the other JVM holds the lock: it must wait and then reuse, not build a second time.
            java.util.concurrent.CompletableFuture<Path> waiting = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> new BinaryCache(root).obtain("k1", List.of("etcd"), builder));
            Files.createFile(root.resolve("release"));
            assertThat(other.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(waiting.get(60, TimeUnit.SECONDS)).as("the waiting obtain gets the other JVM's entry")
                    .isEqualTo(root.resolve("k1"));

            boolean lockedAfterwards = heldByAnotherProcess(root.resolve(".lock-k1"));

            assertThat(lockedWhileBuilding).isTrue();
            assertThat(lockedAfterwards).isFalse();
            assertThat(other.exitValue()).isZero();
            assertThat(new BinaryCache(root).obtain("k1", List.of("etcd"), builder)).isEqualTo(root.resolve("k1"));
            assertThat(builds).as("the entry built by the other JVM is reused").hasValue(0);
        } finally {
            other.destroyForcibly();
        }
    }

    private static boolean heldByAnotherProcess(Path lockFile) throws IOException {
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        }
    }

    @Test
    void twoEntriesBuildSideBySideAndNeitherRemovesTheOthersPartialFolder() throws Exception {
        CountDownLatch bothBuilding = new CountDownLatch(2);
        CountDownLatch bothChecked = new CountDownLatch(2);
        List<Path> partials = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Boolean> sawBoth = new java.util.concurrent.CopyOnWriteArrayList<>();
        BinaryCache.Builder waitsForTheOther = output -> {
            partials.add(output);
            builder.build(output);
            bothBuilding.countDown();
            awaitOrFail(bothBuilding, "the other entry's build did not run beside this one");
            sawBoth.add(partials.size() == 2 && partials.stream().allMatch(Files::isDirectory));
            bothChecked.countDown();
            awaitOrFail(bothChecked, "the other build did not check");
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Path> one = pool.submit(() -> new BinaryCache(root).obtain("k1", FILES, waitsForTheOther));
            Future<Path> two = pool.submit(() -> new BinaryCache(root).obtain("k2", FILES, waitsForTheOther));

            assertThat(one.get(60, TimeUnit.SECONDS)).isEqualTo(root.resolve("k1"));
            assertThat(two.get(60, TimeUnit.SECONDS)).isEqualTo(root.resolve("k2"));
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds).hasValue(2);
        assertThat(sawBoth).as("each build saw both partial folders while both built").containsExactly(true, true);
    }

    private static void awaitOrFail(CountDownLatch latch, String failure) throws IOException {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IOException(failure);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    @Test
    void concurrentCallersShareOneBuild() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<Path>> results = new java.util.ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return new BinaryCache(root).obtain("k1", FILES, builder);
                }));
            }
            start.countDown();
            for (Future<Path> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo(root.resolve("k1"));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(builds).hasValue(1);
    }
}

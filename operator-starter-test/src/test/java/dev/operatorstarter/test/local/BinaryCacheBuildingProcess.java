package dev.operatorstarter.test.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

/**
 * A separate JVM that builds a cache entry whose build blocks until the test allows it to finish:
 * it creates {@code <root>/building} when the build starts and waits for {@code <root>/release}.
 */
public final class BinaryCacheBuildingProcess {

    private BinaryCacheBuildingProcess() {
    }

    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        new BinaryCache(root).obtain("k1", List.of("etcd"), output -> {
            Files.createFile(root.resolve("building"));
            while (!Files.exists(root.resolve("release"))) {
                try {
                    Thread.sleep(10); // polling for a file the test creates; not a timing assumption
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while waiting for the release file");
                }
            }
            Path binary = Files.writeString(output.resolve("etcd"), "built in another JVM");
            Files.setPosixFilePermissions(binary, PosixFilePermissions.fromString("rwxr-xr-x"));
        });
        System.out.println("done");
    }
}

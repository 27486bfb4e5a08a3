package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Deleting the harness's temporary folders. Not API. */
public final class Folders {

    private static final Logger log = LoggerFactory.getLogger(Folders.class);

    private Folders() {
    }

    /** Deletes {@code path} and everything under it; nothing happens when it does not exist. */
    public static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(path)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** {@link #deleteRecursively}, logging a failure instead of throwing it; {@code null} is ignored. */
    public static void deleteQuietly(@Nullable Path path) {
        if (path == null) {
            return;
        }
        try {
            deleteRecursively(path);
        } catch (IOException e) {
            log.warn("Could not delete {}: {}", path, e.getMessage());
        }
    }
}

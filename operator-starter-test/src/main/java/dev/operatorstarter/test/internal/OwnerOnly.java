package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Restricts files that hold keys to their owner, where the file system has POSIX permissions. Not API. */
public final class OwnerOnly {

    private OwnerOnly() {
    }

    public static void restrict(Path file) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
                    Files.isDirectory(file) ? "rwx------" : "rw-------"));
        }
    }
}

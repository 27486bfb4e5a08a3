package dev.operatorstarter.test.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Restricts files that hold keys to their owner, where the file system has POSIX permissions. Not API. */
public final class OwnerOnly {

    private OwnerOnly() {
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    public static void restrict(Path file) throws IOException {
        if (posix()) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(
                    Files.isDirectory(file) ? "rwx------" : "rw-------"));
        }
    }

    /**
     * Writes {@code content} to {@code file}, which is readable by its owner only from the moment
     * it exists: a new file is created with those permissions, an existing one is restricted before
     * it is overwritten.
     */
    public static void write(Path file, String content) throws IOException {
        FileAttribute<?>[] attributes = new FileAttribute<?>[0];
        if (posix()) {
            if (Files.exists(file)) {
                restrict(file);
            } else {
                attributes = new FileAttribute<?>[] {
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
            }
        }
        try (SeekableByteChannel channel = Files.newByteChannel(file, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING), attributes)) {
            ByteBuffer bytes = ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        }
    }
}

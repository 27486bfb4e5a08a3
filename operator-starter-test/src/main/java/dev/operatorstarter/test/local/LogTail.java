package dev.operatorstarter.test.local;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The last lines of a log file, for error messages. */
final class LogTail {

    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** Up to {@code lines} last lines of {@code file}, or a note saying why there are none. */
    static String of(Path file, int lines) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            long length = in.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[size];
            in.seek(length - size);
            in.readFully(bytes);
            String[] all = new String(bytes, StandardCharsets.UTF_8).split("\r?\n");
            int from = Math.max(0, all.length - lines);
            if (size == MAX_BYTES && from == 0) {
                from = 1; // the first line may be cut
            }
            StringBuilder tail = new StringBuilder();
            for (int i = from; i < all.length; i++) {
                tail.append("    ").append(all[i]).append('\n');
            }
            return tail.length() == 0 ? "    (the log is empty)\n" : tail.toString();
        } catch (IOException e) {
            return "    (cannot read " + file + ": " + e.getMessage() + ")\n";
        }
    }
}

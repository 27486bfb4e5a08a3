package dev.operatorstarter.client.rest;

/** Byte counts as people read them in messages and docs: {@code 16 MiB}, {@code 512 KiB}, {@code 1000 bytes}. Not API. */
final class ByteSizes {

    private static final long KIB = 1024;
    private static final long MIB = KIB * 1024;
    private static final long GIB = MIB * 1024;

    private ByteSizes() {
    }

    /** {@code bytes} in the largest binary unit that divides it exactly, else in bytes. */
    public static String describe(long bytes) {
        if (bytes > 0 && bytes % GIB == 0) {
            return bytes / GIB + " GiB";
        }
        if (bytes > 0 && bytes % MIB == 0) {
            return bytes / MIB + " MiB";
        }
        if (bytes > 0 && bytes % KIB == 0) {
            return bytes / KIB + " KiB";
        }
        return bytes == 1 ? "1 byte" : bytes + " bytes";
    }
}

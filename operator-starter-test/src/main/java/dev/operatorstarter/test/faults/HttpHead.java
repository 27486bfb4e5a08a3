package dev.operatorstarter.test.faults;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The head of an HTTP/1.1 message: the start line (a request line or a status line) and the header
 * fields in the order they came, names as sent.
 */
record HttpHead(String startLine, List<Map.Entry<String, String>> headers) {

    /** The largest head read; a larger one is refused as malformed. */
    static final int MAX_HEAD_BYTES = 64 * 1024;

    HttpHead {
        headers = List.copyOf(headers);
    }

    /**
     * Reads a head up to and including its empty line. Lines end in CRLF (a bare LF is accepted).
     *
     * @return the head, or {@code null} when the stream ends before its first byte (a keep-alive
     *         connection closed between messages)
     * @throws IOException when the stream ends inside the head, or the head is malformed or too large
     */
    static @Nullable HttpHead read(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int total = 0;
        while (true) {
            int b = in.read();
            if (b < 0) {
                if (lines.isEmpty() && line.size() == 0) {
                    return null;
                }
                throw new EOFException("the connection ended inside an HTTP head");
            }
            if (++total > MAX_HEAD_BYTES) {
                throw new IOException("HTTP head larger than " + MAX_HEAD_BYTES + " bytes");
            }
            if (b != '\n') {
                line.write(b);
                continue;
            }
            String text = line.toString(StandardCharsets.ISO_8859_1);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (text.isEmpty()) {
                if (lines.isEmpty()) {
                    continue; // a stray CRLF between messages, which RFC 9112 says to ignore
                }
                return parse(lines);
            }
            lines.add(text);
        }
    }

    private static HttpHead parse(List<String> lines) throws IOException {
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        for (String field : lines.subList(1, lines.size())) {
            int colon = field.indexOf(':');
            if (colon <= 0 || Character.isWhitespace(field.charAt(0))) {
                throw new IOException("malformed HTTP header line: " + field);
            }
            headers.add(Map.entry(field.substring(0, colon).trim(), field.substring(colon + 1).trim()));
        }
        return new HttpHead(lines.get(0), headers);
    }

    /** The request method (the first word of a request line). */
    String method() {
        return part(0);
    }

    /** The request target (the second word of a request line). */
    String target() {
        return part(1);
    }

    /** The status code of a status line. */
    int status() throws IOException {
        try {
            return Integer.parseInt(part(1));
        } catch (NumberFormatException e) {
            throw new IOException("malformed HTTP status line: " + startLine, e);
        }
    }

    private String part(int index) {
        String[] parts = startLine.split(" ", 3);
        return index < parts.length ? parts[index] : "";
    }

    /** The first value of {@code name} (case-insensitive), or {@code null}. */
    @Nullable String header(String name) {
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }

    /** Whether a comma-separated header (such as {@code Connection}) lists {@code token}, case-insensitive. */
    boolean lists(String name, String token) {
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                for (String value : header.getValue().split(",")) {
                    if (value.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** This head without the fields named (case-insensitive). */
    HttpHead without(String... names) {
        List<Map.Entry<String, String>> kept = new ArrayList<>();
        for (Map.Entry<String, String> header : headers) {
            if (!named(header.getKey(), names)) {
                kept.add(header);
            }
        }
        return new HttpHead(startLine, kept);
    }

    /** This head with one more field at the end. */
    HttpHead with(String name, String value) {
        List<Map.Entry<String, String>> more = new ArrayList<>(headers);
        more.add(Map.entry(name, value));
        return new HttpHead(startLine, more);
    }

    /** This head with another start line. */
    HttpHead withStartLine(String line) {
        return new HttpHead(line, headers);
    }

    /** Writes the head and its empty line (does not flush). */
    void writeTo(OutputStream out) throws IOException {
        StringBuilder text = new StringBuilder(startLine).append("\r\n");
        for (Map.Entry<String, String> header : headers) {
            text.append(header.getKey()).append(": ").append(header.getValue()).append("\r\n");
        }
        out.write(text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1));
    }

    private static boolean named(String name, String... names) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String candidate : names) {
            if (candidate.toLowerCase(Locale.ROOT).equals(lower)) {
                return true;
            }
        }
        return false;
    }
}

package dev.operatorstarter.test.faults;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * An HTTP/1.1 body as it is framed (RFC 9112 section 6), read piece by piece as bytes arrive, so a
 * watch's events pass through the proxy one by one.
 */
final class HttpBody {

    /** How a message's body ends. */
    enum Framing {
        /** No body (a HEAD response, 1xx, 204, 304, or a request without length). */
        NONE,
        /** {@code Content-Length} bytes. */
        LENGTH,
        /** {@code Transfer-Encoding: chunked}. */
        CHUNKED,
        /** Until the connection closes (a response with neither). */
        UNTIL_CLOSE
    }

    private static final int PIECE = 16 * 1024;

    private final InputStream in;
    private final Framing framing;
    private long remaining; // of the body (LENGTH) or of the current chunk (CHUNKED)
    private boolean done;

    private HttpBody(InputStream in, Framing framing, long length) {
        this.in = in;
        this.framing = framing;
        this.remaining = framing == Framing.LENGTH ? length : 0;
        this.done = framing == Framing.NONE || (framing == Framing.LENGTH && length == 0);
    }

    /** The body of a request with {@code head}, read from {@code in}. */
    static HttpBody ofRequest(HttpHead head, InputStream in) throws IOException {
        if (isChunked(head)) {
            return new HttpBody(in, Framing.CHUNKED, 0);
        }
        long length = contentLength(head);
        return length > 0 ? new HttpBody(in, Framing.LENGTH, length) : new HttpBody(in, Framing.NONE, 0);
    }

    /** The body of a response with {@code head} to a request with {@code requestMethod}. */
    static HttpBody ofResponse(HttpHead head, String requestMethod, InputStream in) throws IOException {
        int status = head.status();
        if ("HEAD".equalsIgnoreCase(requestMethod) || status < 200 || status == 204 || status == 304) {
            return new HttpBody(in, Framing.NONE, 0);
        }
        if (isChunked(head)) {
            return new HttpBody(in, Framing.CHUNKED, 0);
        }
        long length = contentLength(head);
        return length >= 0 ? new HttpBody(in, Framing.LENGTH, length) : new HttpBody(in, Framing.UNTIL_CLOSE, 0);
    }

    Framing framing() {
        return framing;
    }

    /**
     * The next piece of the body's content (chunk framing removed) as soon as some bytes are there,
     * or {@code null} at its end.
     *
     * @throws EOFException when the connection ends before the framing says the body does
     */
    @Nullable byte[] next() throws IOException {
        if (done) {
            return null;
        }
        if (framing == Framing.CHUNKED && remaining == 0) {
            remaining = chunkSize();
            if (remaining == 0) {
                skipTrailers();
                done = true;
                return null;
            }
        }
        byte[] buffer = new byte[(int) (framing == Framing.UNTIL_CLOSE ? PIECE : Math.min(PIECE, remaining))];
        int read = in.read(buffer);
        if (read < 0) {
            if (framing == Framing.UNTIL_CLOSE) {
                done = true;
                return null;
            }
            throw new EOFException("the connection ended inside an HTTP body");
        }
        if (framing != Framing.UNTIL_CLOSE) {
            remaining -= read;
            if (remaining == 0 && framing == Framing.LENGTH) {
                done = true;
            }
            if (remaining == 0 && framing == Framing.CHUNKED) {
                expectLineEnd();
            }
        }
        return read == buffer.length ? buffer : Arrays.copyOf(buffer, read);
    }

    /** The whole remaining content, refusing more than {@code limit} bytes. */
    byte[] readAll(int limit) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] piece = next(); piece != null; piece = next()) {
            if (all.size() + piece.length > limit) {
                throw new IOException("HTTP body larger than " + limit + " bytes");
            }
            all.write(piece);
        }
        return all.toByteArray();
    }

    /** Writes {@code content} as one chunk (nothing for an empty one, which would end the body). */
    static void writeChunk(OutputStream out, byte[] content) throws IOException {
        if (content.length > 0) {
            writeChunkStart(out, content.length, content);
            out.write(CRLF);
        }
    }

    /**
     * Writes a chunk's size line announcing {@code declaredSize} bytes, then {@code content}, which
     * may be fewer: what a stream cut in the middle of a chunk looks like.
     */
    static void writeChunkStart(OutputStream out, int declaredSize, byte[] content) throws IOException {
        out.write((Integer.toHexString(declaredSize) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(content);
    }

    /** Writes the last chunk, which ends a chunked body. */
    static void writeLastChunk(OutputStream out) throws IOException {
        out.write(LAST_CHUNK);
    }

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private long chunkSize() throws IOException {
        String line = line();
        int extension = line.indexOf(';');
        String hex = (extension >= 0 ? line.substring(0, extension) : line).trim();
        try {
            long size = Long.parseLong(hex, 16);
            if (size < 0) {
                throw new NumberFormatException(hex);
            }
            return size;
        } catch (NumberFormatException e) {
            throw new IOException("malformed chunk size line: " + line, e);
        }
    }

    private void skipTrailers() throws IOException {
        while (!line().isEmpty()) {
            // trailer fields are dropped: the API server sends none
        }
    }

    private void expectLineEnd() throws IOException {
        if (!line().isEmpty()) {
            throw new IOException("a chunk's data is not followed by CRLF");
        }
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the connection ended inside a chunked body");
            }
            if (b == '\n') {
                int end = line.length();
                return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
            }
            if (line.length() > 4096) {
                throw new IOException("chunk size line too long");
            }
            line.append((char) b);
        }
    }

    private static boolean isChunked(HttpHead head) {
        String encoding = head.header("Transfer-Encoding");
        return encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked");
    }

    private static long contentLength(HttpHead head) throws IOException {
        String length = head.header("Content-Length");
        if (length == null) {
            return -1;
        }
        try {
            long value = Long.parseLong(length.trim());
            if (value < 0) {
                throw new NumberFormatException(length);
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IOException("malformed Content-Length: " + length, e);
        }
    }
}

package dev.operatorstarter.autoconfigure.webhook;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A TLS connection to a webhook server driven byte by byte, for callers that misbehave: headers or
 * a body sent slowly, bodies too large, connections held open doing nothing.
 */
final class RawConnection implements AutoCloseable {

    private final SSLSocket socket;

    private RawConnection(SSLSocket socket) {
        this.socket = socket;
    }

    /** A connection with its TLS handshake done. */
    static RawConnection open(SSLContext tls, int port) throws IOException {
        SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        socket.startHandshake();
        return new RawConnection(socket);
    }

    /** Writes {@code text}; false when the server has closed the connection. */
    boolean send(String text) {
        try {
            socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * What the server sends until it closes the connection, waiting at most {@code within}; null
     * when it is still open then. A reset counts as closed.
     */
    String readUntilClosed(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                received.write(buffer, 0, read);
            }
        } catch (SocketTimeoutException e) {
            return null;
        } catch (IOException e) {
            // reset or TLS failure after the server closed: closed all the same
        }
        return received.toString(StandardCharsets.US_ASCII);
    }

    /**
     * One response: its status line and headers, and a body of its Content-Length, waiting at most
     * {@code within}; what arrived when the connection closes first.
     */
    String readResponse(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int headerEnd = -1;
        int length = 0;
        while (headerEnd < 0 || received.size() < headerEnd + length) {
            int read = in.read();
            if (read < 0) {
                break;
            }
            received.write(read);
            String text = received.toString(StandardCharsets.US_ASCII);
            if (headerEnd < 0 && text.endsWith("\r\n\r\n")) {
                headerEnd = text.length();
                java.util.regex.Matcher match = java.util.regex.Pattern.compile("(?i)content-length: *([0-9]+)")
                        .matcher(text);
                length = match.find() ? Integer.parseInt(match.group(1)) : 0;
            }
        }
        return received.toString(StandardCharsets.US_ASCII);
    }

    /** The start of a POST of a review to {@code path}, with a Content-Length of {@code length}. */
    static String postHeaders(String path, long length) {
        return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + length + "\r\n\r\n";
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

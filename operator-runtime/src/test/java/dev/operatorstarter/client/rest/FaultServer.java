package dev.operatorstarter.client.rest;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An in-process HTTP/1.1 server that plays faults a real API server will not produce on demand:
 * scripted statuses, malformed bodies, a chunked stream cut in the middle of an event. Each
 * connection's requests are answered by the script in order; {@link #requests()} records them.
 */
final class FaultServer implements AutoCloseable {

    /** What the server saw. */
    record Received(String method, String path, Map<String, String> headers, byte[] body, long nanoTime,
            String clientSubject) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** How to answer: raw bytes to write, then whether to close the connection (or hang, or write forever). */
    record Reply(byte[] bytes, boolean close, Writer writer) {

        Reply(byte[] bytes, boolean close) {
            this(bytes, close, null);
        }

        /** Writes more after {@link #bytes}; runs until it returns or the client goes away. */
        @FunctionalInterface
        interface Writer {
            void write(OutputStream out) throws IOException;
        }

        /** Sends nothing at all: the client waits until its own timeout. */
        static Reply hang() {
            return new Reply(new byte[0], false, out -> {
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        /** A chunked 200 that writes {@code chunk} again and again, counting, until the client goes away. */
        static Reply endless(String chunk, java.util.concurrent.atomic.AtomicLong written) {
            byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
            byte[] framed = concat(concat((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII),
                    bytes), "\r\n".getBytes(StandardCharsets.US_ASCII));
            return new Reply("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII), true, out -> {
                        while (true) {
                            out.write(framed);
                            written.incrementAndGet();
                        }
                    });
        }

        static Reply json(int code, String body, String... headers) {
            return status(code, "application/json", body, headers);
        }

        static Reply status(int code, String contentType, String body, String... headers) {
            byte[] payload = body.getBytes(StandardCharsets.UTF_8);
            StringBuilder head = new StringBuilder("HTTP/1.1 " + code + " X\r\nContent-Type: " + contentType
                    + "\r\nContent-Length: " + payload.length + "\r\n");
            for (String header : headers) {
                head.append(header).append("\r\n");
            }
            head.append("\r\n");
            return new Reply(concat(head.toString().getBytes(StandardCharsets.US_ASCII), payload), false);
        }

        /** A chunked 200 whose chunks are written and then the socket is closed without the final chunk. */
        static Reply cutStream(String... chunks) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            for (String chunk : chunks) {
                byte[] bytes = chunk.getBytes(StandardCharsets.UTF_8);
                out.writeBytes((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.writeBytes(bytes);
                out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            return new Reply(out.toByteArray(), true);
        }

        /** A chunked 200 that ends properly after its chunks. */
        static Reply stream(String... chunks) {
            Reply cut = cutStream(chunks);
            return new Reply(concat(cut.bytes(), "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), false);
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] all = new byte[a.length + b.length];
            System.arraycopy(a, 0, all, 0, a.length);
            System.arraycopy(b, 0, all, a.length, b.length);
            return all;
        }
    }

    private final ServerSocket socket;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Received> requests = Collections.synchronizedList(new ArrayList<>());
    private final ConcurrentLinkedQueue<Socket> open = new ConcurrentLinkedQueue<>();
    private final AtomicInteger closedConnections = new AtomicInteger();
    private final Function<Received, Reply> script;
    FaultServer(Function<Received, Reply> script) throws IOException {
        this.script = script;
        this.socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    /** The same over TLS with {@code tls}'s server certificate. */
    FaultServer(Function<Received, Reply> script, javax.net.ssl.SSLContext tls) throws IOException {
        this.script = script;
        this.socket = tls.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.secure = true;
    }

    private boolean secure;
    private int idleTimeoutMillis;

    /** Closes a connection that sends no request for {@code idle}, as the API server does after 90 s. */
    FaultServer closingIdleConnectionsAfter(Duration idle) {
        this.idleTimeoutMillis = (int) idle.toMillis();
        return this;
    }

    FaultServer start() {
        executor.execute(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connection.setSoTimeout(idleTimeoutMillis);
                    open.add(connection);
                    executor.execute(() -> serve(connection));
                } catch (IOException e) {
                    return;
                }
            }
        });
        return this;
    }

    URI uri() {
        return URI.create((secure ? "https" : "http") + "://127.0.0.1:" + socket.getLocalPort());
    }

    List<Received> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** Connections the client (or the script) has closed. */
    int closedConnections() {
        return closedConnections.get();
    }

    private void serve(Socket connection) {
        try (connection; InputStream in = new BufferedInputStream(connection.getInputStream());
                OutputStream out = connection.getOutputStream()) {
            while (true) {
                Received request = read(in, clientSubject(connection));
                if (request == null) {
                    return;
                }
                requests.add(request);
                Reply reply = script.apply(request);
                out.write(reply.bytes());
                out.flush();
                if (reply.writer() != null) {
                    reply.writer().write(out);
                    out.flush();
                }
                if (reply.close()) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(connection);
            closedConnections.incrementAndGet();
        }
    }

    /** The subject of the client's TLS certificate, or "" when it sent none (or this is plain HTTP). */
    private static String clientSubject(Socket connection) {
        if (connection instanceof javax.net.ssl.SSLSocket tls) {
            try {
                return tls.getSession().getPeerPrincipal().getName();
            } catch (javax.net.ssl.SSLPeerUnverifiedException e) {
                return "";
            }
        }
        return "";
    }

    private static Received read(InputStream in, String clientSubject) throws IOException {
        String requestLine = line(in);
        if (requestLine == null || requestLine.isEmpty()) {
            return null;
        }
        String[] parts = requestLine.split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        String header;
        while ((header = line(in)) != null && !header.isEmpty()) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        byte[] body = new byte[0];
        String length = headers.get("content-length");
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        }
        return new Received(parts[0], parts[1], headers, body, System.nanoTime(), clientSubject);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.US_ASCII);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.US_ASCII);
    }

    int openConnections() {
        return open.size();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket connection : open) {
            connection.close();
        }
        executor.shutdownNow();
    }
}

package dev.operatorstarter.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The port of {@link WatchServer} that accepts the WebSocket upgrade, as the API server does: the JDK's
 * {@code HttpServer} cannot hand a connection over to another protocol, so this is a minimal HTTP/1.1 server on
 * plain sockets. It answers lists and refused streaming lists as the HTTP port does (fixed-length bodies,
 * keep-alive) and, on a watch that asks for the upgrade, sends each event as one WebSocket text message, as
 * kube-apiserver does for JSON, then closes the watch with 1000 (normal closure). A watch that does not ask for
 * the upgrade is refused (400): a client that fell back to HTTP here gets no events, rather than being measured
 * on the other path.
 */
final class WebSocketEndpoint implements AutoCloseable {

    private static final byte[] NOT_UPGRADED = """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"BadRequest","code":400,"message":"this port watches over WebSocket only"}"""
            .getBytes(StandardCharsets.UTF_8);

    private final Supplier<byte[]> nextWatch;
    private final ServerSocket listener;
    private final ExecutorService threads;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    /**
     * @param nextWatch the events of the next WebSocket watch, newline-separated (an empty array when a watch
     *     should end at once)
     */
    WebSocketEndpoint(Supplier<byte[]> nextWatch) throws IOException {
        this.nextWatch = nextWatch;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.threads = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "websocket-watch");
            thread.setDaemon(true);
            return thread;
        });
    }

    void start() {
        threads.execute(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket connection = listener.accept();
                open.add(connection);
                threads.execute(() -> serve(connection));
            } catch (IOException e) {
                // closed: the loop ends
            }
        }
    }

    private void serve(Socket connection) {
        try (connection) {
            connection.setTcpNoDelay(true);
            InputStream in = new BufferedInputStream(connection.getInputStream());
            OutputStream out = new BufferedOutputStream(connection.getOutputStream(), 64 * 1024);
            for (Request request = Request.read(in); request != null; request = Request.read(in)) {
                if (request.asksForWebSocket() && WatchServer.isWatch(request.query())) {
                    watch(request, in, out);
                    return;
                } else if (request.query().contains("sendInitialEvents=true")) {
                    respond(out, 422, "Unprocessable Entity", WatchServer.REFUSED);
                } else if (WatchServer.isWatch(request.query())) {
                    respond(out, 400, "Bad Request", NOT_UPGRADED);
                } else {
                    respond(out, 200, "OK", WatchServer.EMPTY_LIST);
                }
            }
        } catch (IOException e) {
            // the client went away: expected once it has what it needs
        } finally {
            open.remove(connection);
        }
    }

    private void watch(Request request, InputStream in, OutputStream out) throws IOException {
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Accept: " + WebSocketFrames.acceptKey(request.header("sec-websocket-key")) + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        byte[] stream = nextWatch.get();
        int start = 0;
        while (start < stream.length) {
            int end = start;
            while (end < stream.length && stream[end] != '\n') {
                end++;
            }
            if (end > start) {
                out.write(WebSocketFrames.header(WebSocketFrames.TEXT, end - start));
                out.write(stream, start, end - start);
            }
            start = end + 1;
        }
        out.write(WebSocketFrames.close(1000));
        out.flush();
        // wait for the client's close before closing the socket: closing with its frames unread would reset the
        // connection, and a reset can discard events the client has not read yet
        while (WebSocketFrames.read(in).opcode() != WebSocketFrames.CLOSE) {
            // pings and anything else: nothing to answer once the watch is over
        }
    }

    private static void respond(OutputStream out, int code, String reason, byte[] body) throws IOException {
        out.write(("HTTP/1.1 " + code + " " + reason + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket connection : open) {
            connection.close();
        }
        threads.shutdownNow();
    }

    /** The head of one HTTP request; header names in lower case. */
    private record Request(String target, Map<String, String> headers) {

        /** The next request's head, or null when the client has closed the connection between requests. */
        static Request read(InputStream in) throws IOException {
            String requestLine = line(in);
            if (requestLine == null) {
                return null;
            }
            Map<String, String> headers = new LinkedHashMap<>();
            for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
                int colon = line.indexOf(':');
                if (colon > 0) {
                    headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
                }
            }
            String[] parts = requestLine.split(" ");
            return new Request(parts.length > 1 ? parts[1] : "/", headers);
        }

        String query() {
            int question = target.indexOf('?');
            return question < 0 ? "" : target.substring(question + 1);
        }

        String header(String name) {
            return headers.getOrDefault(name, "");
        }

        boolean asksForWebSocket() {
            return header("upgrade").equalsIgnoreCase("websocket") && !header("sec-websocket-key").isEmpty();
        }

        private static String line(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b != '\n'; b = in.read()) {
                if (b < 0) {
                    return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
                }
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.ISO_8859_1);
        }
    }
}

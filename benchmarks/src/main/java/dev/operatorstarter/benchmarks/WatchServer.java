package dev.operatorstarter.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;

/**
 * An in-process stand-in for the API server that streams pre-serialized watch events as fast as
 * the client reads them: the list is empty, the first watch carries every event, later watches
 * end at once. A streaming list ({@code sendInitialEvents}) is refused with 422, as servers
 * without the feature do, so every subject lists and then watches; a WebSocket upgrade (fabric8's
 * first choice for watches) is refused too, so fabric8 is measured on its HTTP streaming watch.
 */
final class WatchServer implements AutoCloseable {

    private static final byte[] EMPTY_LIST = """
            {"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}"""
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] REFUSED = """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,"message":"sendInitialEvents is not supported"}"""
            .getBytes(StandardCharsets.UTF_8);

    private final HttpServer server;
    private volatile byte[] events = new byte[0];
    private volatile boolean served;

    WatchServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", this::handle);
        server.start();
    }

    /** The next watch streams {@code stream} once. */
    void serve(byte[] stream) {
        events = stream;
        served = false;
    }

    /** A kubeconfig for this server (plain HTTP, a token nobody checks). */
    Path kubeconfig(Path file) throws IOException {
        return Files.writeString(file, "apiVersion: v1\nkind: Config\ncurrent-context: fake\n"
                + "clusters: [{name: fake, cluster: {server: \"http://127.0.0.1:" + server.getAddress().getPort() + "\"}}]\n"
                + "contexts: [{name: fake, context: {cluster: fake, user: fake, namespace: bench}}]\n"
                + "users: [{name: fake, user: {token: not-checked}}]\n");
    }

    private void handle(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        query = query == null ? "" : query;
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        try (OutputStream out = exchange.getResponseBody()) {
            if (exchange.getRequestHeaders().containsKey("Upgrade")) {
                // fabric8 tries a WebSocket watch first; a plain 200 instead of the upgrade makes it fall back
                // to HTTP streaming (as it does with servers that do not upgrade)
                exchange.sendResponseHeaders(200, -1);
            } else if (query.contains("sendInitialEvents=true")) {
                exchange.sendResponseHeaders(422, REFUSED.length);
                out.write(REFUSED);
            } else if (query.contains("watch=true") || query.contains("watch=1")) {
                exchange.sendResponseHeaders(200, 0);
                if (!served) {
                    served = true;
                    byte[] stream = events;
                    for (int offset = 0; offset < stream.length; offset += 64 * 1024) {
                        out.write(stream, offset, Math.min(64 * 1024, stream.length - offset));
                    }
                }
            } else {
                exchange.sendResponseHeaders(200, EMPTY_LIST.length);
                out.write(EMPTY_LIST);
            }
        } catch (IOException e) {
            // the client closed the watch: expected once it has what it needs
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

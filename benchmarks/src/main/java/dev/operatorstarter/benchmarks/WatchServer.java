package dev.operatorstarter.benchmarks;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An in-process stand-in for the API server that streams pre-serialized watch events as fast as the client reads
 * them: the list is empty, the first watch carries every event, later watches end at once. A streaming list
 * ({@code sendInitialEvents}) is refused with 422, as servers without the feature do, so every subject lists and
 * then watches.
 *
 * <p>Two ports, one per {@link WatchTransport}, each with a kubeconfig of its own: the HTTP port (the JDK's
 * {@code HttpServer}) refuses the WebSocket upgrade, so fabric8, which tries a WebSocket first, falls back to
 * HTTP streaming there; the WebSocket port ({@link WebSocketEndpoint}) accepts the upgrade as a real API server
 * does and watches over nothing else. {@link #traffic()} tells which transport carried the events, so a run can
 * check that its subject used the path it is named after.
 */
final class WatchServer implements AutoCloseable {

    static final byte[] EMPTY_LIST = """
            {"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}"""
            .getBytes(StandardCharsets.UTF_8);
    static final byte[] REFUSED = """
            {"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Invalid","code":422,"message":"sendInitialEvents is not supported"}"""
            .getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOTHING = new byte[0];

    /**
     * What reached the server since the last {@link #serve}.
     *
     * @param events the transport the events went out over, empty if no watch has carried them yet
     * @param streamedWatches watches answered with an HTTP stream (the first with the events, later ones empty)
     * @param webSocketWatches watches upgraded to a WebSocket (likewise)
     * @param refusedUpgrades upgrades the HTTP port refused
     */
    record Traffic(Optional<WatchTransport> events, int streamedWatches, int webSocketWatches, int refusedUpgrades) {
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private final WebSocketEndpoint webSocket;
    private final AtomicReference<byte[]> pending = new AtomicReference<>(NOTHING);
    private final AtomicReference<WatchTransport> carrier = new AtomicReference<>();
    private final AtomicInteger streamedWatches = new AtomicInteger();
    private final AtomicInteger webSocketWatches = new AtomicInteger();
    private final AtomicInteger refusedUpgrades = new AtomicInteger();

    private WatchServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        executor = Executors.newCachedThreadPool(task -> new Thread(task, "watch-server"));
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        webSocket = new WebSocketEndpoint(() -> take(WatchTransport.WEBSOCKET));
    }

    /** Binds both ports on the loopback interface and starts serving. */
    static WatchServer start() throws IOException {
        WatchServer watchServer = new WatchServer();
        watchServer.server.start();
        watchServer.webSocket.start();
        return watchServer;
    }

    /** The next watch, on either port, streams {@code stream} once; the traffic counts start again. */
    void serve(byte[] stream) {
        carrier.set(null);
        streamedWatches.set(0);
        webSocketWatches.set(0);
        refusedUpgrades.set(0);
        pending.set(stream);
    }

    Traffic traffic() {
        return new Traffic(Optional.ofNullable(carrier.get()), streamedWatches.get(), webSocketWatches.get(),
                refusedUpgrades.get());
    }

    /** A kubeconfig for the port of {@code transport} (plain HTTP, a token nobody checks). */
    Path kubeconfig(Path file, WatchTransport transport) throws IOException {
        int port = transport == WatchTransport.WEBSOCKET ? webSocket.port() : server.getAddress().getPort();
        return Files.writeString(file, "apiVersion: v1\nkind: Config\ncurrent-context: fake\n"
                + "clusters: [{name: fake, cluster: {server: \"http://127.0.0.1:" + port + "\"}}]\n"
                + "contexts: [{name: fake, context: {cluster: fake, user: fake, namespace: bench}}]\n"
                + "users: [{name: fake, user: {token: not-checked}}]\n");
    }

    static boolean isWatch(String query) {
        return query.contains("watch=true") || query.contains("watch=1");
    }

    /** The events for a watch over {@code transport}: all of them the first time, none after. */
    private byte[] take(WatchTransport transport) {
        (transport == WatchTransport.WEBSOCKET ? webSocketWatches : streamedWatches).incrementAndGet();
        byte[] stream = pending.getAndSet(NOTHING);
        if (stream.length > 0) {
            carrier.set(transport);
        }
        return stream;
    }

    private void handle(HttpExchange exchange) throws IOException {
        String query = exchange.getRequestURI().getRawQuery();
        query = query == null ? "" : query;
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        try (OutputStream out = exchange.getResponseBody()) {
            if (exchange.getRequestHeaders().containsKey("Upgrade")) {
                // fabric8 tries a WebSocket watch first; a plain 200 instead of the upgrade makes it fall back
                // to HTTP streaming (as it does with servers that do not upgrade)
                refusedUpgrades.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
            } else if (query.contains("sendInitialEvents=true")) {
                exchange.sendResponseHeaders(422, REFUSED.length);
                out.write(REFUSED);
            } else if (isWatch(query)) {
                exchange.sendResponseHeaders(200, 0);
                byte[] stream = take(WatchTransport.HTTP_STREAMING);
                for (int offset = 0; offset < stream.length; offset += 64 * 1024) {
                    out.write(stream, offset, Math.min(64 * 1024, stream.length - offset));
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
    public void close() throws IOException {
        server.stop(0);
        executor.shutdownNow();
        webSocket.close();
    }
}

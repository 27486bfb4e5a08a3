package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterConnection;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A bare WebSocket of Kubernetes' channel protocols ({@code v5.channel.k8s.io}, {@code v4.channel.k8s.io}):
 * each binary message starts with its channel's number. For the harness's own tests of the path from
 * the API server to KWOK's server, on the JDK's WebSocket client; the client's verbs (issue 37,
 * part 2) are the real thing.
 */
final class ChannelSocket implements AutoCloseable {

    private final ByteArrayOutputStream[] channels = new ByteArrayOutputStream[8];
    private final CompletableFuture<Void> closed = new CompletableFuture<>();
    private final WebSocket socket;

    private ChannelSocket(ClusterConnection connection, String path, String... protocols) throws Exception {
        for (int i = 0; i < channels.length; i++) {
            channels[i] = new ByteArrayOutputStream();
        }
        URI uri = URI.create("wss://" + connection.server().getAuthority() + path);
        HttpClient http = HttpClient.newBuilder().sslContext(connection.sslContext()).build();
        WebSocket.Builder builder = http.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(10));
        if (protocols.length > 0) {
            builder.subprotocols(protocols[0], java.util.Arrays.copyOfRange(protocols, 1, protocols.length));
        }
        this.socket = builder.buildAsync(uri, new Listener()).get(30, TimeUnit.SECONDS);
    }

    /** Opens {@code path} (with its query) on the API server of {@code connection}. */
    static ChannelSocket open(ClusterConnection connection, String path, String... protocols) {
        try {
            return new ChannelSocket(connection, path, protocols);
        } catch (Exception e) {
            throw new IllegalStateException("cannot open a WebSocket to " + path + ": " + e, e);
        }
    }

    /** What channel {@code channel} carried so far, as UTF-8 text. */
    synchronized String text(int channel) {
        return channels[channel].toString(StandardCharsets.UTF_8);
    }

    /** What channel {@code channel} carried so far. */
    synchronized byte[] bytes(int channel) {
        return channels[channel].toByteArray();
    }

    /** Sends {@code data} on channel {@code channel}. */
    void send(int channel, byte[] data) {
        ByteBuffer message = ByteBuffer.allocate(data.length + 1).put((byte) channel).put(data).flip();
        socket.sendBinary(message, true).join();
    }

    /** Waits until the server closes the socket. */
    void awaitClose(Duration timeout) {
        try {
            closed.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the WebSocket did not close within " + timeout + ": " + e, e);
        }
    }

    @Override
    public void close() {
        socket.abort();
    }

    private final class Listener implements WebSocket.Listener {

        private ByteArrayOutputStream message = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            message.writeBytes(bytes);
            if (last) {
                byte[] whole = message.toByteArray();
                message = new ByteArrayOutputStream();
                if (whole.length > 0 && whole[0] >= 0 && whole[0] < channels.length) {
                    synchronized (ChannelSocket.this) {
                        channels[whole[0]].write(whole, 1, whole.length - 1);
                    }
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(null);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closed.completeExceptionally(error);
        }
    }
}

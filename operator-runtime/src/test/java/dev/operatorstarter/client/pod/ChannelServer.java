package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.CloseWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.WebsocketServerSpec;

/**
 * A WebSocket stand-in for the API server's streaming subresources, for what a real server will
 * not do on demand: speak only v4, close abruptly, send a malformed status. Each upgrade runs the
 * test's {@link Script} on a thread of its own against a {@link Peer}; a refusing server answers
 * every upgrade with an HTTP error and a body instead.
 */
final class ChannelServer implements AutoCloseable {

    static final String TOKEN = "s3cr3t-token-never-in-messages";

    /** What the server does with one connection. */
    interface Script {
        void run(Peer peer) throws Exception;
    }

    /** One upgrade the server saw: its path and query, and its headers. */
    record Upgrade(String uri, String authorization, String protocols) {
    }

    private final DisposableServer server;
    private final List<Upgrade> upgrades = new CopyOnWriteArrayList<>();
    private final List<Throwable> scriptFailures = new CopyOnWriteArrayList<>();
    private @Nullable RestClient rest;

    private ChannelServer(List<String> protocols, @Nullable Script script, int refusalCode, String refusalBody) {
        WebsocketServerSpec spec = WebsocketServerSpec.builder().protocols(String.join(",", protocols)).build();
        this.server = HttpServer.create().host("127.0.0.1").port(0).handle((request, response) -> {
            upgrades.add(new Upgrade(request.uri(), String.valueOf(request.requestHeaders().get("Authorization")),
                    String.valueOf(request.requestHeaders().get("Sec-WebSocket-Protocol"))));
            if (script == null) {
                return response.status(refusalCode).header("Content-Type", "application/json").sendString(
                        Mono.just(refusalBody)).then();
            }
            return response.sendWebsocket((in, out) -> {
                Sinks.Many<WebSocketFrame> outgoing = Sinks.many().unicast().onBackpressureBuffer();
                Peer peer = new Peer(out.selectedSubprotocol(), outgoing);
                in.withConnection(connection -> peer.channel.set(connection));
                in.receiveFrames().subscribe(frame -> peer.received.add(bytes(frame.content())), error -> { });
                Schedulers.boundedElastic().schedule(() -> {
                    try {
                        script.run(peer);
                    } catch (Throwable e) {
                        scriptFailures.add(e);
                        peer.abort();
                    }
                });
                return out.sendObject(outgoing.asFlux()).then();
            }, spec);
        }).bindNow();
    }

    /** A server that offers {@code protocols} and runs {@code script} for each connection. */
    static ChannelServer speaking(List<String> protocols, Script script) {
        return new ChannelServer(protocols, script, 0, "");
    }

    /** A server that refuses every upgrade with {@code code} and {@code body}. */
    static ChannelServer refusing(int code, String body) {
        return new ChannelServer(List.of(), null, code, body);
    }

    /** A REST client for this server with a bearer token. */
    RestClient client() {
        if (rest == null) {
            rest = RestClient.create(new ClientConfig(URI.create("http://127.0.0.1:" + server.port()),
                    TlsSettings.defaults(), new Credentials.BearerToken(TOKEN), null, "default", "test"),
                    ClientOptions.builder().requestTimeout(Duration.ofSeconds(10)).build());
        }
        return rest;
    }

    List<Upgrade> upgrades() {
        return upgrades;
    }

    List<Throwable> scriptFailures() {
        return scriptFailures;
    }

    private static byte[] bytes(ByteBuf content) {
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        return bytes;
    }

    @Override
    public void close() {
        if (rest != null) {
            rest.close();
        }
        server.disposeNow();
    }

    /** The server's side of one connection. */
    static final class Peer {
        final BlockingQueue<byte[]> received = new LinkedBlockingQueue<>();
        final AtomicReference<reactor.netty.Connection> channel = new AtomicReference<>();
        private final @Nullable String protocol;
        private final Sinks.Many<WebSocketFrame> outgoing;

        Peer(@Nullable String protocol, Sinks.Many<WebSocketFrame> outgoing) {
            this.protocol = protocol;
            this.outgoing = outgoing;
        }

        @Nullable String protocol() {
            return protocol;
        }

        /** Sends {@code data} on {@code channel}. */
        void send(int channel, byte[] data) {
            byte[] message = new byte[data.length + 1];
            message[0] = (byte) channel;
            System.arraycopy(data, 0, message, 1, data.length);
            sendRaw(message);
        }

        void send(int channel, String text) {
            send(channel, text.getBytes(StandardCharsets.UTF_8));
        }

        void sendRaw(byte[] message) {
            emit(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(message)));
        }

        /** The next message from the client, within 10 s. */
        byte[] next() throws InterruptedException {
            byte[] message = received.poll(10, TimeUnit.SECONDS);
            if (message == null) {
                throw new AssertionError("no message from the client within 10 s");
            }
            return message;
        }

        /** A normal close (1000). */
        void close() {
            emit(new CloseWebSocketFrame(1000, ""));
            outgoing.tryEmitComplete();
        }

        /** Drops the TCP connection without a close message. */
        void abort() {
            reactor.netty.Connection connection = channel.get();
            if (connection != null) {
                connection.channel().close();
            }
        }

        private synchronized void emit(WebSocketFrame frame) {
            outgoing.emitNext(frame, Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(2)));
        }
    }
}

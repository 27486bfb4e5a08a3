package dev.operatorstarter.client.rest;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.netty.http.websocket.WebsocketInbound;
import reactor.netty.http.websocket.WebsocketOutbound;

/**
 * {@link WebSocket} over a Reactor Netty connection. The connection lives while {@link #lifetime()}
 * (the handler's publisher) has not completed: it completes when the caller closes or when the
 * receiving subscriber is done (every message delivered, or cancelled), and Reactor Netty then
 * sends the close message and releases the channel. A connection the server ends ends on its own.
 */
final class NettyWebSocket implements WebSocket {

    private final WebsocketInbound inbound;
    private final String subprotocol;
    private final String description;
    private final Channel channel;
    private final Sinks.Empty<Void> done = Sinks.empty();
    private final Mono<Integer> closeCode;
    private final AtomicBoolean received = new AtomicBoolean();

    NettyWebSocket(WebsocketInbound inbound, WebsocketOutbound outbound, String description, int maxMessageBytes) {
        this.inbound = inbound.aggregateFrames(maxMessageBytes);
        this.description = description;
        @Nullable String chosen = outbound.selectedSubprotocol();
        this.subprotocol = chosen == null ? "" : chosen;
        Channel[] holder = new Channel[1];
        inbound.withConnection(connection -> holder[0] = connection.channel());
        this.channel = holder[0];
        // empty when the connection ended without a close message
        this.closeCode = inbound.receiveCloseStatus().map(status -> status.code()).defaultIfEmpty(1006).cache();
        this.closeCode.subscribe(code -> { }, error -> { }); // watched from the start: it is emitted once
    }

    /** What the handler returns: completes when this socket is closed by either side. */
    Mono<Void> lifetime() {
        return done.asMono();
    }

    @Override
    public String subprotocol() {
        return subprotocol;
    }

    @Override
    public Flux<byte[]> receive() {
        if (!received.compareAndSet(false, true)) {
            return Flux.error(new IllegalStateException("the messages of " + description + " are received once"));
        }
        return inbound.receiveFrames().filter(NettyWebSocket::isData).map(frame -> bytes(frame.content()))
                .onErrorMap(error -> !(error instanceof KubernetesClientException),
                        error -> new KubernetesClientException(description + " broke while reading: "
                                + (error.getMessage() == null ? error.getClass().getSimpleName() : error.getMessage()),
                                error))
                // the handler ends once everything received was delivered, not when the close arrives
                .doFinally(signal -> done.tryEmitEmpty());
    }

    private static boolean isData(WebSocketFrame frame) {
        return frame instanceof BinaryWebSocketFrame || frame instanceof TextWebSocketFrame
                || frame instanceof ContinuationWebSocketFrame;
    }

    private static byte[] bytes(ByteBuf content) {
        byte[] bytes = new byte[content.readableBytes()];
        content.getBytes(content.readerIndex(), bytes);
        return bytes;
    }

    @Override
    public Mono<Void> send(byte[] message) {
        return Mono.create(sink -> {
            if (!channel.isActive()) {
                sink.error(new KubernetesClientException(description + " is closed: cannot send"));
                return;
            }
            channel.writeAndFlush(new BinaryWebSocketFrame(Unpooled.wrappedBuffer(message))).addListener(future -> {
                if (future.isSuccess()) {
                    sink.success();
                } else {
                    Throwable cause = future.cause();
                    sink.error(new KubernetesClientException(description + " failed sending: "
                            + (cause == null ? "closed" : cause.getMessage()),
                            cause == null ? new IOException("closed") : cause));
                }
            });
        });
    }

    @Override
    public Mono<Integer> closeCode() {
        return closeCode;
    }

    @Override
    public void close() {
        done.tryEmitEmpty();
    }
}

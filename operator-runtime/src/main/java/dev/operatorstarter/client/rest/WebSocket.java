package dev.operatorstarter.client.rest;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A WebSocket to the API server, opened by {@link Request#webSocket}: the transport under the
 * streaming subresources (a Pod's {@code exec}, {@code attach} and {@code portforward}), with the
 * client's TLS, proxy and credentials.
 *
 * <p>Messages are whole (fragments are joined) and handed over as bytes, text messages as their
 * UTF-8 bytes. {@link #receive()} applies backpressure: while its subscriber requests nothing, the
 * socket is not read, so the server's writes wait. Pings are answered by the transport.
 *
 * <p>Thread-safe: {@link #send} may be called from any thread; messages go out in the order of the
 * calls. {@link #close()} is idempotent.
 */
public interface WebSocket extends AutoCloseable {

    /** The subprotocol the server chose among those offered; empty when it chose none. */
    String subprotocol();

    /**
     * The messages the server sends, in order; subscribe once. Completes when the connection ends
     * (see {@link #closeCode()} for how), fails when it breaks while reading.
     */
    Flux<byte[]> receive();

    /** Sends one binary message when subscribed; completes once it is written to the socket. */
    Mono<Void> send(byte[] message);

    /**
     * How the connection ended, once it has: the close code the server sent (1000 for a normal
     * close), or 1006 when the connection ended without a close message. Never emits before.
     */
    Mono<Integer> closeCode();

    /** Sends a normal close (1000) and releases the connection; messages not yet received are dropped. */
    @Override
    void close();
}

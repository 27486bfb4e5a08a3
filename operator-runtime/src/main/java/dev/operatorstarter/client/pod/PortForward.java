package dev.operatorstarter.client.pod;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * One connection to a port of a Pod over the API server ({@code pods/portforward}, a WebSocket
 * with one data and one error channel for the port): bytes written to {@link #output()} reach the
 * port, what the port answers comes out of {@link #input()}. Open when returned; {@link #close()}
 * ends it (try-with-resources).
 *
 * <p>{@link #input()} buffers up to 256 KiB and stops reading the connection while full. It ends
 * when the connection ends, and throws an {@code IOException} naming the Pod and port when the
 * server reports an error for the port (nothing listens on it, for instance). The protocol cannot
 * half-close: closing {@link #output()} sends nothing; the Pod's side sees the end at {@link #close()}.
 *
 * <p>Thread-safe: one thread may read while another writes. Blocking; not on a Reactor I/O thread.
 */
public interface PortForward extends AutoCloseable {

    /** The Pod's port. */
    int port();

    /** What the port sends. */
    InputStream input();

    /** What to send to the port; a write blocks until the bytes are on the socket. */
    OutputStream output();

    /** Closes the connection. Idempotent. */
    @Override
    void close();
}

package dev.operatorstarter.client.pod;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A local listening socket whose connections are forwarded to a port of a Pod (kubectl's
 * {@code port-forward}; fabric8's {@code LocalPortForward}): each accepted connection opens one
 * {@link PortForward} and copies bytes both ways on two threads of its own, until either side ends.
 * Listens when returned, on the loopback address only; {@link #close()} stops listening and ends
 * every connection.
 *
 * <p>A connection that cannot be forwarded (the Pod is gone, its port refuses) is closed, and the
 * failure logged and kept in {@link #errors()}; the listener stays open for the next.
 */
public interface LocalPortForward extends AutoCloseable {

    /** The local port, chosen by the system when 0 was asked for. */
    int localPort();

    /** The local address and port to connect to. */
    InetSocketAddress localAddress();

    /** The Pod's port. */
    int port();

    /** The failures of forwarded connections so far (the last 100), oldest first. */
    List<Throwable> errors();

    /** Stops listening and closes every forwarded connection. Idempotent. */
    @Override
    void close();
}

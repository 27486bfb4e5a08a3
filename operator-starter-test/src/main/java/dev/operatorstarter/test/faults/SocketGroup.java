package dev.operatorstarter.test.faults;

import java.io.IOException;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The sockets of one proxied connection, the client's and its upstream ones, closed together when
 * the connection is cut. Thread-safe: any thread may cut while the connection's thread adds.
 */
final class SocketGroup {

    // guarded by this: every socket to close on closeAll()
    private final List<Socket> sockets = new ArrayList<>();
    private boolean closed;

    SocketGroup(Socket client) {
        sockets.add(client);
    }

    /**
     * Adds {@code socket}, to be closed with the others.
     *
     * @throws IOException when the group was closed already; {@code socket} is closed then
     */
    synchronized void add(Socket socket) throws IOException {
        if (closed) {
            closeQuietly(socket);
            throw new IOException("the connection was cut");
        }
        sockets.add(socket);
    }

    /**
     * Closes every socket of the group abruptly, without a TLS close_notify: the TCP connections
     * end (FIN) wherever the HTTP message was. Idempotent.
     */
    void closeAll() {
        List<Socket> toClose;
        synchronized (this) {
            closed = true;
            toClose = List.copyOf(sockets);
        }
        for (Socket socket : toClose) {
            closeQuietly(socket);
        }
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** Closes {@code socket} with a TCP reset (no TLS close_notify, no FIN). */
    static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    static void closeQuietly(@Nullable Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}

package dev.operatorstarter.client.pod;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link LocalPortForward} on a loopback {@link ServerSocket}: one thread accepts; each accepted
 * connection opens a {@link PortForward} and two threads copy, local to Pod and Pod to local. When
 * the Pod's side ends, the local socket is closed; when the local side closes, the Pod's side is.
 */
final class SocketPortForward implements LocalPortForward {

    private static final Logger log = LoggerFactory.getLogger(SocketPortForward.class);
    private static final int KEPT_ERRORS = 100;

    private final ServerSocket server;
    private final int port;
    private final String what;
    private final IntFunction<PortForward> opener;
    private final ThreadFactory threads;
    private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
    private final Deque<Throwable> errors = new ArrayDeque<>();
    private volatile boolean closed;

    private SocketPortForward(ServerSocket server, int port, String what, IntFunction<PortForward> opener,
            ThreadFactory threads) {
        this.server = server;
        this.port = port;
        this.what = what;
        this.opener = opener;
        this.threads = threads;
    }

    /** Listens on loopback {@code localPort} and starts accepting. */
    static SocketPortForward listen(int localPort, int port, String what, IntFunction<PortForward> opener,
            ThreadFactory threads) {
        if (localPort < 0 || localPort > 65535) {
            throw new IllegalArgumentException("localPort must be 0 (any) to 65535, was " + localPort);
        }
        ServerSocket server;
        try {
            server = new ServerSocket(localPort, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new ExecException("cannot listen on local port " + localPort + " for " + what + ": "
                    + e.getMessage(), e);
        }
        SocketPortForward forward = new SocketPortForward(server, port, what, opener, threads);
        threads.newThread(forward::accept).start();
        return forward;
    }

    private void accept() {
        while (!closed) {
            Socket local;
            try {
                local = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    record(new ExecException("accepting on local port " + localPort() + " for " + what + " failed: "
                            + e.getMessage(), e));
                }
                return;
            }
            threads.newThread(() -> forward(local)).start();
        }
    }

    private void forward(Socket local) {
        open.add(local);
        PortForward remote;
        try {
            remote = opener.apply(port);
        } catch (RuntimeException e) {
            record(e);
            closeQuietly(local);
            open.remove(local);
            return;
        }
        open.add(remote);
        threads.newThread(() -> copy(local, remote, true)).start();
        copy(local, remote, false);
    }

    /** Copies one direction; when it ends, both sides are closed. */
    private void copy(Socket local, PortForward remote, boolean toPod) {
        byte[] buffer = new byte[32 * 1024];
        try (InputStream in = toPod ? local.getInputStream() : remote.input();
                OutputStream out = toPod ? remote.output() : local.getOutputStream()) {
            for (int read; (read = in.read(buffer)) >= 0; ) {
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            if (!closed && !(e instanceof SocketException && local.isClosed())) {
                record(e);
            }
        } finally {
            closeQuietly(local);
            remote.close();
            open.remove(local);
            open.remove(remote);
        }
    }

    private void record(Throwable error) {
        log.warn("A forwarded connection of {} failed: {}", what, error.getMessage());
        synchronized (errors) {
            errors.add(error);
            if (errors.size() > KEPT_ERRORS) {
                errors.poll();
            }
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // closing: nothing left to do
        }
    }

    @Override
    public int localPort() {
        return server.getLocalPort();
    }

    @Override
    public InetSocketAddress localAddress() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public List<Throwable> errors() {
        synchronized (errors) {
            return List.copyOf(errors);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        open.forEach(SocketPortForward::closeQuietly);
        open.clear();
    }
}

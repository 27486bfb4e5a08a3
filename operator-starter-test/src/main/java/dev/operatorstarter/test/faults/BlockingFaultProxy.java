package dev.operatorstarter.test.faults;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.Pki;
import dev.operatorstarter.test.internal.Tls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link FaultProxy} on blocking sockets: one accept thread, and one thread per client
 * connection that serves its requests in turn (HTTP/1.1 without pipelining needs no more). Blocking
 * I/O keeps each fault a plain statement at the point where it acts.
 */
final class BlockingFaultProxy implements FaultProxy {

    private static final Logger log = LoggerFactory.getLogger(BlockingFaultProxy.class);
    private static final String CONTEXT = "fault-proxy";

    private final ServerSocket server;
    private final URI uri;
    private final Upstream upstream;
    private final SSLSocketFactory serverTls;
    private final ClusterConnection admin;
    private final Path folder;
    private final boolean ownsFolder;
    private final ThreadFactory threads;
    private final Stall stall = new Stall();
    private final List<ActiveInjection> injections = new CopyOnWriteArrayList<>();
    private final Set<ProxiedConnection> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger tokenFiles = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile boolean dropping;
    private @Nullable Thread acceptor;

    private BlockingFaultProxy(ServerSocket server, URI uri, Upstream upstream, SSLSocketFactory serverTls,
            ClusterConnection admin, Path folder, boolean ownsFolder, ThreadFactory threads) {
        this.server = server;
        this.uri = uri;
        this.upstream = upstream;
        this.serverTls = serverTls;
        this.admin = admin;
        this.folder = folder;
        this.ownsFolder = ownsFolder;
        this.threads = threads;
    }

    /** Creates the certificates, binds the port, writes the admin kubeconfig, then starts accepting. */
    static BlockingFaultProxy start(ClusterConnection upstreamConnection, FaultProxyOptions options) {
        Objects.requireNonNull(upstreamConnection, "upstream");
        Objects.requireNonNull(options, "options");
        Upstream upstream = Upstream.of(upstreamConnection);
        Pki pki = Pki.newAuthority("operator-starter-fault-proxy-ca");
        Pki.Issued serving = pki.serving("fault-proxy", List.of("localhost"), List.of("127.0.0.1"));
        Pki.Issued client = pki.client("fault-proxy-admin", "fault-proxy");
        SSLSocketFactory serverTls = Tls.sslContext(pki.caPem(), serving.certificatePem(), serving.keyPem())
                .getSocketFactory();
        Path folder = options.folder();
        ServerSocket server = null;
        try {
            if (folder != null) {
                Files.createDirectories(folder);
            }
            Path where = folder != null ? folder : Files.createTempDirectory("fault-proxy-");
            server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
            URI uri = URI.create("https://127.0.0.1:" + server.getLocalPort());
            Path kubeconfig = where.resolve(CONTEXT + ".kubeconfig");
            Kubeconfig.write(kubeconfig, CONTEXT, uri, pki.caPem(), client.certificatePem(), client.keyPem(), null);
            ClusterConnection admin = new ClusterConnection(uri, pki.caPem(), client.certificatePem(), client.keyPem(),
                    null, kubeconfig);
            BlockingFaultProxy proxy = new BlockingFaultProxy(server, uri, upstream, serverTls, admin, where,
                    folder == null, options.threadFactory());
            proxy.startAccepting();
            log.debug("fault proxy at {} in front of {}", uri, upstream);
            return proxy;
        } catch (IOException e) {
            if (server != null) {
                try {
                    server.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new UncheckedIOException("cannot start the fault proxy: " + e.getMessage(), e);
        }
    }

    private void startAccepting() {
        Thread thread = threads.newThread(this::accept);
        acceptor = thread;
        thread.start();
    }

    private void accept() {
        while (!closed.get()) {
            Socket socket;
            try {
                socket = server.accept();
                socket.setTcpNoDelay(true);
            } catch (IOException e) {
                if (!closed.get()) {
                    log.warn("fault proxy at {}: accept failed: {}", uri, e.toString());
                }
                continue;
            }
            if (dropping) {
                SocketGroup.reset(socket);
                continue;
            }
            ProxiedConnection connection = new ProxiedConnection(socket, this, serverTls, upstream);
            connections.add(connection);
            if (dropping || closed.get()) { // switched while this one was being accepted
                connection.abort();
                connections.remove(connection);
                continue;
            }
            try {
                threads.newThread(connection).start();
            } catch (RuntimeException | Error e) {
                connection.abort();
                connections.remove(connection);
                log.warn("fault proxy at {}: cannot start a connection thread: {}", uri, e.toString());
            }
        }
    }

    @Override
    public URI uri() {
        return uri;
    }

    @Override
    public ClusterConnection connection() {
        return admin;
    }

    @Override
    public ClusterConnection connectionWithToken(String bearerToken) {
        Objects.requireNonNull(bearerToken, "bearerToken");
        Path kubeconfig = folder.resolve(CONTEXT + "-token-" + tokenFiles.incrementAndGet() + ".kubeconfig");
        Kubeconfig.write(kubeconfig, CONTEXT, uri, admin.certificateAuthorityPem(), null, null, bearerToken);
        return new ClusterConnection(uri, admin.certificateAuthorityPem(), null, null, bearerToken, kubeconfig);
    }

    @Override
    public Injection inject(RequestMatcher requests, Fault fault) {
        return add(requests, fault, Long.MAX_VALUE);
    }

    @Override
    public Injection inject(RequestMatcher requests, Fault fault, int times) {
        if (times <= 0) {
            throw new IllegalArgumentException("times must be positive, was " + times);
        }
        return add(requests, fault, times);
    }

    private Injection add(RequestMatcher requests, Fault fault, long times) {
        if (closed.get()) {
            throw new IllegalStateException("the fault proxy at " + uri + " is closed");
        }
        ActiveInjection injection = new ActiveInjection(requests, fault, times, injections::remove);
        injections.add(injection);
        return injection;
    }

    /**
     * The injection whose fault applies to a request, or {@code null}; counts the request in every
     * {@link Fault#none()} injection that matches it.
     */
    @Nullable ActiveInjection decide(String method, String target) {
        ActiveInjection applied = null;
        for (ActiveInjection injection : injections) {
            if (!injection.requests().matches(method, target)) {
                continue;
            }
            if (injection.fault() instanceof Fault.None) {
                injection.take();
            } else if (applied == null && injection.take()) {
                applied = injection;
            }
            if (injection.isSpent()) {
                injections.remove(injection); // its handle still releases what it holds
            }
        }
        return applied;
    }

    @Override
    public void halfOpen(boolean on) {
        stall.set(on);
    }

    @Override
    public void dropAll(boolean on) {
        dropping = on;
        if (on) {
            cutConnections();
        }
    }

    @Override
    public void cutConnections() {
        for (ProxiedConnection connection : connections) {
            connection.abort();
        }
    }

    @Override
    public void loseConnections() {
        for (ProxiedConnection connection : connections) {
            connection.lose();
        }
    }

    @Override
    public int openConnections() {
        return connections.size();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        closing.countDown();
        try {
            server.close();
        } catch (IOException e) {
            log.debug("fault proxy at {}: closing the listening socket: {}", uri, e.toString());
        }
        stall.close();
        injections.forEach(ActiveInjection::close);
        cutConnections();
        Thread thread = acceptor;
        if (thread != null && thread != Thread.currentThread()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (ownsFolder) {
            Folders.deleteQuietly(folder);
        }
    }

    Stall stall() {
        return stall;
    }

    ThreadFactory threads() {
        return threads;
    }

    /** Waits {@code duration}; returns {@code false} when the proxy closed (or the thread was interrupted) first. */
    boolean pause(Duration duration) {
        if (duration.isZero()) {
            return !closed.get();
        }
        try {
            return !closing.await(duration.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    void ended(ProxiedConnection connection) {
        connections.remove(connection);
    }

    @Override
    public String toString() {
        return "FaultProxy[" + uri + " -> " + upstream + (closed.get() ? ", closed" : "") + "]";
    }
}

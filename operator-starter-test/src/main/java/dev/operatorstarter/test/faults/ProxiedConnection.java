package dev.operatorstarter.test.faults;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection through the proxy, served by one thread: the TLS handshake, then HTTP/1.1
 * requests one after another (keep-alive), each forwarded, or not, as the injection that applies
 * says, on this connection's own upstream connection for the request's identity.
 *
 * <p>Request bodies are read whole before they are forwarded (Kubernetes requests are small), so a
 * request can be sent again on a fresh upstream connection when the server had closed an idle one.
 * Response bodies are streamed piece by piece. When the server cannot be reached, the client
 * connection is cut, as a client of a failing server would see.
 *
 * <p>While a response streams (chunked, or until the connection closes: a watch), a second thread
 * waits for the client's next byte, so a client that goes away ends the upstream stream at once.
 */
final class ProxiedConnection implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(ProxiedConnection.class);
    private static final int MAX_REQUEST_BODY = 64 * 1024 * 1024;
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    private static final int BUFFER = 16 * 1024;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");
    private static final String[] HOP_BY_HOP = {"Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer",
        "Transfer-Encoding", "Upgrade"};

    /** An upstream connection and its streams; used by the connection's thread only. */
    private static final class Link {
        final SSLSocket socket;
        final InputStream in;
        final OutputStream out;
        boolean used;

        Link(SSLSocket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), BUFFER);
            this.out = new BufferedOutputStream(socket.getOutputStream(), BUFFER);
        }
    }

    private final Socket client;
    private final BlockingFaultProxy proxy;
    private final SSLSocketFactory serverTls;
    private final Upstream upstream;

    // guarded by this: every socket to close on abort()
    private final List<Socket> sockets = new ArrayList<>();
    private boolean aborted;

    // set by lose(): this connection alone stalls for good, until it is aborted or the client leaves
    private final Stall lost = new Stall();

    // the connection's thread only
    private @Nullable CompletableFuture<Integer> nextByte;
    private @Nullable Link asAdmin;
    private @Nullable Link withToken;

    ProxiedConnection(Socket client, BlockingFaultProxy proxy, SSLSocketFactory serverTls, Upstream upstream) {
        this.client = client;
        this.proxy = proxy;
        this.serverTls = serverTls;
        this.upstream = upstream;
        sockets.add(client);
    }

    @Override
    public void run() {
        SSLSocket tls = null;
        try {
            if (!pass()) {
                return;
            }
            tls = handshake();
            boolean certified = presentedCertificate(tls);
            PushbackInputStream in = new PushbackInputStream(new BufferedInputStream(tls.getInputStream(), BUFFER));
            OutputStream out = new BufferedOutputStream(tls.getOutputStream(), BUFFER);
            while (serve(in, out, certified)) {
                // next request on the same connection
            }
        } catch (IOException | RuntimeException e) {
            if (!isAborted()) {
                log.debug("fault proxy connection from {} ended: {}", client.getRemoteSocketAddress(), e.toString());
            }
        } finally {
            closeQuietly(tls);
            closeQuietly(client);
            closeLinks();
            proxy.ended(this);
        }
    }

    /**
     * Closes the client connection and its upstream connections abruptly, from any thread: the TCP
     * connections end (FIN) without a TLS close_notify and wherever the HTTP message was, which a
     * client sees as a connection that broke, as when a server dies. Data written before arrives
     * (a TCP reset could discard it at the client, which would make a cut stream's kept events
     * unreliable). Idempotent.
     */
    void abort() {
        List<Socket> toClose;
        synchronized (this) {
            aborted = true;
            toClose = List.copyOf(sockets);
        }
        lost.close();
        for (Socket socket : toClose) {
            closeQuietly(socket);
        }
    }

    /**
     * From any thread: from now on this connection forwards nothing more in either direction, and
     * stays open until the client closes it (or the proxy does), as when the network path of one
     * connection is lost without a FIN or reset.
     */
    void lose() {
        lost.set(true);
    }

    /** Waits while the proxy is half-open or this connection is lost; {@code false} once it ended. */
    private boolean pass() {
        return proxy.stall().pass() && lost.pass();
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

    private synchronized boolean isAborted() {
        return aborted;
    }

    private SSLSocket handshake() throws IOException {
        SSLSocket tls = (SSLSocket) serverTls.createSocket(client, null, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        parameters.setWantClientAuth(true);
        tls.setSSLParameters(parameters);
        client.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
        tls.startHandshake();
        client.setSoTimeout(0); // a keep-alive connection may stay idle for long
        return tls;
    }

    private static boolean presentedCertificate(SSLSocket tls) {
        try {
            return tls.getSession().getPeerCertificates().length > 0;
        } catch (SSLPeerUnverifiedException e) {
            return false;
        }
    }

    /** Serves one request; returns whether the connection goes on to the next. */
    private boolean serve(PushbackInputStream in, OutputStream out, boolean certified) throws IOException {
        HttpHead request = readRequest(in);
        if (request == null) {
            return false;
        }
        String method = request.method();
        boolean clientCloses = request.lists("Connection", "close") || request.startLine().endsWith("HTTP/1.0");
        ActiveInjection injection = proxy.decide(method, request.target());
        Fault fault = injection == null ? Fault.none() : injection.fault();
        if (request.lists("Expect", "100-continue")) {
            out.write(CONTINUE);
            out.flush();
        }
        byte[] body = HttpBody.ofRequest(request, in).readAll(MAX_REQUEST_BODY);

        if (fault instanceof Fault.Respond respond) {
            return answer(out, respond.code(), "injected by the fault proxy", respond.retryAfterSeconds(), clientCloses);
        }
        if (fault instanceof Fault.Hang && !injection.hold()) {
            return stopped();
        }
        if (fault instanceof Fault.Latency latency && !proxy.pause(latency.beforeForwarding())) {
            return stopped();
        }
        boolean ownToken = request.header("Authorization") != null;
        if (!ownToken && !certified) {
            return answer(out, 401, "Unauthorized: the fault proxy forwards a request as the admin only from a client "
                    + "with its client certificate, and as anyone else only with an Authorization header", -1, clientCloses);
        }
        if (!pass()) {
            return stopped();
        }
        BodyRewrite rewrite = BodyRewrite.of(fault);
        boolean upgrade = request.lists("Connection", "upgrade") && request.header("Upgrade") != null;
        HttpHead forwarded = upstreamRequest(request, ownToken, rewrite != null, upgrade, body);
        if (fault instanceof Fault.RequestHeader header) {
            forwarded = forwarded.without(header.name()).with(header.name(), header.value());
        }

        Link link;
        HttpHead response;
        try {
            link = link(ownToken);
            boolean reused = link.used;
            try {
                response = exchange(link, forwarded, body);
            } catch (IOException e) {
                // A connection the server closed while idle fails the next request before any answer:
                // send it again on a new one if it cannot have reached the server, or may be repeated.
                if (!reused || !(e instanceof NotSent || IDEMPOTENT.contains(method))) {
                    throw e;
                }
                drop(link);
                link = link(ownToken);
                response = exchange(link, forwarded, body);
            }
        } catch (IOException e) {
            log.debug("fault proxy: {} {} could not be forwarded to {}: {}", method, request.target(), upstream, e.toString());
            abort();
            return false;
        }
        if (fault instanceof Fault.Latency latency && !proxy.pause(latency.beforeResponse())) {
            return stopped();
        }
        if (response.status() == 101) {
            tunnel(in, out, link, response);
            return false;
        }
        HttpBody responseBody = HttpBody.ofResponse(response, method, link.in);
        boolean serverCloses = response.lists("Connection", "close") || response.startLine().startsWith("HTTP/1.0")
                || responseBody.framing() == HttpBody.Framing.UNTIL_CLOSE;
        boolean keepAlive = !clientCloses && !serverCloses;
        HttpHead head = response.without("Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer");
        if (!keepAlive) {
            head = head.with("Connection", "close");
        }
        if (responseBody.framing() == HttpBody.Framing.CHUNKED || responseBody.framing() == HttpBody.Framing.UNTIL_CLOSE) {
            watchForTheClientLeaving(in);
        }
        boolean consumed = rewrite == null || responseBody.framing() == HttpBody.Framing.NONE
                ? pass(head, responseBody, out)
                : rewrite(head, responseBody, rewrite, out);
        if (isAborted()) {
            return false;
        }
        if (!consumed || serverCloses) {
            drop(link); // a rewritten body may not have been read to its end
        }
        return keepAlive;
    }

    /** The next request's head; after a stream, the watcher has its first byte (or saw the client leave). */
    private @Nullable HttpHead readRequest(PushbackInputStream in) throws IOException {
        CompletableFuture<Integer> first = nextByte;
        if (first != null) {
            nextByte = null;
            int b;
            try {
                b = first.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            } catch (ExecutionException e) {
                return null;
            }
            if (b < 0) {
                return null;
            }
            in.unread(b);
        }
        return HttpHead.read(in);
    }

    /**
     * While a response streams, the client sends nothing (HTTP/1.1 without pipelining), so a read
     * that ends means it went away: then the connection is cut, which ends the upstream stream too
     * (a watch without events would otherwise hold it until the server ends it). A byte that
     * arrives instead starts the client's next request, which {@link #readRequest} takes over.
     */
    private void watchForTheClientLeaving(InputStream in) {
        CompletableFuture<Integer> first = new CompletableFuture<>();
        nextByte = first;
        proxy.threads().newThread(() -> {
            int b;
            try {
                b = in.read();
            } catch (IOException e) {
                b = -1;
            }
            first.complete(b);
            if (b < 0) {
                abort();
            }
        }).start();
    }

    /** The proxy closed while this connection waited: cut it. Returns {@code false} for "stop". */
    private boolean stopped() {
        abort();
        return false;
    }

    private boolean answer(OutputStream out, int code, String message, long retryAfterSeconds, boolean close)
            throws IOException {
        if (!pass()) {
            return stopped();
        }
        StatusResponse.write(out, code, message, retryAfterSeconds, close);
        out.flush();
        return !close;
    }

    private HttpHead upstreamRequest(HttpHead request, boolean ownToken, boolean identityBody, boolean upgrade,
            byte[] body) {
        HttpHead head = request.without(HOP_BY_HOP).without("Host", "Content-Length", "Expect")
                .withStartLine(request.method() + " " + upstream.target(request.target()) + " HTTP/1.1")
                .with("Host", upstream.hostHeader());
        if (identityBody) {
            head = head.without("Accept-Encoding"); // the body faults read lines, not gzip
        }
        if (!ownToken && upstream.adminToken() != null) {
            head = head.with("Authorization", "Bearer " + upstream.adminToken());
        }
        if (body.length > 0 || hasBody(request)) {
            head = head.with("Content-Length", Integer.toString(body.length));
        }
        if (upgrade) {
            head = head.with("Connection", "Upgrade").with("Upgrade", request.header("Upgrade"));
        }
        return head;
    }

    private static boolean hasBody(HttpHead request) {
        return request.header("Content-Length") != null || request.header("Transfer-Encoding") != null;
    }

    /**
     * Sends the request and reads the response head, skipping interim (1xx) responses other than 101.
     *
     * @throws NotSent when the request could not be written
     * @throws EOFException when the server closed the connection before a byte of the response
     */
    private HttpHead exchange(Link link, HttpHead request, byte[] body) throws IOException {
        try {
            request.writeTo(link.out);
            link.out.write(body);
            link.out.flush();
        } catch (IOException e) {
            throw new NotSent(e);
        }
        link.used = true;
        while (true) {
            HttpHead response = HttpHead.read(link.in);
            if (response == null) {
                throw new EOFException("the server closed the connection without a response");
            }
            if (response.status() >= 200 || response.status() == 101) {
                return response;
            }
        }
    }

    /** A request that could not be written to the server. */
    private static final class NotSent extends IOException {

        private static final long serialVersionUID = 1L;

        NotSent(IOException cause) {
            super("the request could not be sent: " + cause.getMessage(), cause);
        }
    }

    /** Forwards a response unchanged, piece by piece; returns whether its body was read to its end. */
    private boolean pass(HttpHead head, HttpBody body, OutputStream out) throws IOException {
        if (!pass()) {
            return stopped();
        }
        head.writeTo(out);
        out.flush();
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        for (byte[] piece = body.next(); piece != null; piece = body.next()) {
            if (!pass()) {
                return stopped();
            }
            if (chunked) {
                HttpBody.writeChunk(out, piece);
            } else {
                out.write(piece);
            }
            out.flush();
        }
        if (chunked) {
            HttpBody.writeLastChunk(out);
            out.flush();
        }
        return true;
    }

    /**
     * Forwards a response through {@code rewrite}. A body with a length is read whole first, so the
     * rewritten one can announce its own length; other bodies stream. Returns whether the body was
     * read to its end.
     */
    private boolean rewrite(HttpHead head, HttpBody body, BodyRewrite rewrite, OutputStream out) throws IOException {
        boolean consumed = false;
        BodyRewrite.Step step = rewrite.start();
        if (body.framing() == HttpBody.Framing.LENGTH) {
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            kept.writeBytes(step.write());
            while (step.action() == BodyRewrite.Action.CONTINUE) {
                byte[] piece = body.next();
                consumed = piece == null;
                step = piece == null ? rewrite.end() : rewrite.accept(piece);
                kept.writeBytes(step.write());
            }
            if (!pass()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.END) {
                head = head.without("Content-Length").with("Content-Length", Integer.toString(kept.size()));
            }
            head.writeTo(out);
            kept.writeTo(out);
            out.flush();
            if (step.action() == BodyRewrite.Action.ABORT) {
                abort();
            }
            return consumed;
        }
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        head.writeTo(out);
        out.flush();
        while (true) {
            if (!pass()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.ABORT) {
                if (chunked) {
                    HttpBody.writeChunkStart(out, step.declared(), step.write());
                } else {
                    out.write(step.write());
                }
                out.flush();
                abort();
                return false;
            }
            if (chunked) {
                HttpBody.writeChunk(out, step.write());
            } else {
                out.write(step.write());
            }
            if (step.action() == BodyRewrite.Action.END) {
                if (chunked) {
                    HttpBody.writeLastChunk(out);
                }
                out.flush();
                return consumed;
            }
            out.flush();
            byte[] piece = body.next();
            consumed = piece == null;
            step = piece == null ? rewrite.end() : rewrite.accept(piece);
        }
    }

    /** After a 101: copies bytes both ways until either side ends, then closes both. */
    private void tunnel(InputStream in, OutputStream out, Link link, HttpHead response) throws IOException {
        response.writeTo(out);
        out.flush();
        Thread upstreamToClient = proxy.threads().newThread(() -> {
            copy(link.in, out);
            abort();
        });
        upstreamToClient.start();
        copy(in, link.out);
        abort();
    }

    private void copy(InputStream from, OutputStream to) {
        byte[] buffer = new byte[BUFFER];
        try {
            for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
                if (!pass()) {
                    abort();
                    return;
                }
                to.write(buffer, 0, read);
                to.flush();
            }
        } catch (IOException e) {
            log.debug("fault proxy: an upgraded connection ended: {}", e.toString());
        }
    }

    private Link link(boolean ownToken) throws IOException {
        Link link = ownToken ? withToken : asAdmin;
        if (link != null && !link.socket.isClosed()) {
            return link;
        }
        Socket socket = upstream.connect();
        synchronized (this) {
            if (aborted) {
                closeQuietly(socket);
                throw new IOException("the connection was cut");
            }
            sockets.add(socket);
        }
        link = new Link(upstream.secure(socket, !ownToken));
        if (ownToken) {
            withToken = link;
        } else {
            asAdmin = link;
        }
        return link;
    }

    private void drop(Link link) {
        closeQuietly(link.socket);
        if (link == asAdmin) {
            asAdmin = null;
        }
        if (link == withToken) {
            withToken = null;
        }
    }

    private void closeLinks() {
        if (asAdmin != null) {
            drop(asAdmin);
        }
        if (withToken != null) {
            drop(withToken);
        }
    }

    private static void closeQuietly(@Nullable Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    @Override
    public String toString() {
        return "ProxiedConnection[" + client.getRemoteSocketAddress() + " -> " + upstream + "]";
    }
}

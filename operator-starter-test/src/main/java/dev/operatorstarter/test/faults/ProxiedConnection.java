package dev.operatorstarter.test.faults;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PushbackInputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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
 *
 * <p>The upstream connections are {@link UpstreamLinks}; a response goes back through a
 * {@link ResponseRelay}, an upgraded connection through a {@link Tunnel}; each step passes this
 * connection as its {@link ConnectionGate} first, and cuts it when the gate says stop.
 */
final class ProxiedConnection implements Runnable, ConnectionGate {

    private static final Logger log = LoggerFactory.getLogger(ProxiedConnection.class);
    private static final int MAX_REQUEST_BODY = 64 * 1024 * 1024;
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    /** The size of the buffers on both sides of the proxy. */
    static final int BUFFER = 16 * 1024;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final Socket client;
    private final BlockingFaultProxy proxy;
    private final SSLSocketFactory serverTls;
    private final Upstream upstream;

    // every socket to close on abort()
    private final SocketGroup sockets;

    // set by lose(): this connection alone stalls for good, until it is aborted or the client leaves
    private final Stall lost = new Stall();

    // the connection's thread only
    private final UpstreamLinks links;
    private @Nullable CompletableFuture<Integer> nextByte;

    ProxiedConnection(Socket client, BlockingFaultProxy proxy, SSLSocketFactory serverTls, Upstream upstream) {
        this.client = client;
        this.proxy = proxy;
        this.serverTls = serverTls;
        this.upstream = upstream;
        this.sockets = new SocketGroup(client);
        this.links = new UpstreamLinks(upstream, sockets);
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
            SocketGroup.closeQuietly(tls);
            SocketGroup.closeQuietly(client);
            links.closeAll();
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
    @Override
    public void abort() {
        sockets.closeAll();
        lost.close();
    }

    /**
     * From any thread: from now on this connection forwards nothing more in either direction, and
     * stays open until the client closes it (or the proxy does), as when the network path of one
     * connection is lost without a FIN or reset.
     */
    void lose() {
        lost.set(true);
    }

    @Override
    public boolean pass() {
        return proxy.stall().pass() && lost.pass();
    }

    private boolean isAborted() {
        return sockets.isClosed();
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
        HttpHead forwarded = upstream.request(request, ownToken, rewrite != null, upgrade, body);
        if (fault instanceof Fault.RequestHeader header) {
            forwarded = forwarded.without(header.name()).with(header.name(), header.value());
        }

        UpstreamLinks.Link link;
        HttpHead response;
        try {
            UpstreamLinks.Exchange exchange = links.exchange(ownToken, method, forwarded, body);
            link = exchange.link();
            response = exchange.response();
        } catch (IOException e) {
            log.debug("fault proxy: {} {} could not be forwarded to {}: {}", method, request.target(), upstream, e.toString());
            abort();
            return false;
        }
        if (fault instanceof Fault.Latency latency && !proxy.pause(latency.beforeResponse())) {
            return stopped();
        }
        if (response.status() == 101) {
            new Tunnel(proxy.threads(), this).run(in, out, link, response);
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
        ResponseRelay relay = new ResponseRelay(out, this);
        boolean consumed = rewrite == null || responseBody.framing() == HttpBody.Framing.NONE
                ? relay.pass(head, responseBody)
                : relay.rewrite(head, responseBody, rewrite);
        if (isAborted()) {
            return false;
        }
        if (!consumed || serverCloses) {
            links.drop(link); // a rewritten body may not have been read to its end
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

    @Override
    public String toString() {
        return "ProxiedConnection[" + client.getRemoteSocketAddress() + " -> " + upstream + "]";
    }
}

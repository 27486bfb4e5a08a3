package dev.operatorstarter.test.faults;

import dev.operatorstarter.test.ClusterConnection;
import java.net.URI;

/**
 * A loopback HTTPS proxy in front of a real API server that plays faults on demand: the client
 * under test talks to {@link #connection()} instead of the server, and the test decides, from its
 * own thread and at any moment, what goes wrong.
 *
 * <h2>What it is on the wire</h2>
 * It listens on {@code 127.0.0.1} on a free port and terminates TLS with a certificate of its own,
 * issued for {@code 127.0.0.1} and {@code localhost} by a certificate authority created for this
 * proxy ({@link ClusterConnection#certificateAuthorityPem()} of {@link #connection()}). It speaks
 * HTTP/1.1 only (ALPN {@code http/1.1}, so clients never try HTTP/2) and forwards each request to
 * the upstream server over TLS, verifying it against the upstream connection's CA. Responses are
 * streamed: bytes are forwarded as they arrive, so a watch stays open through the proxy for as long
 * as the server keeps it open. Keep-alive connections, {@code Content-Length} and chunked bodies,
 * and protocol upgrades (101) are forwarded; each client connection has its own upstream
 * connection(s), so connections through the proxy map one to one onto connections to the server.
 *
 * <h2>Identity</h2>
 * <ul>
 *   <li>A request with an {@code Authorization} header (a bearer token, as a service account sends) is
 *       forwarded with that header on an upstream connection that presents <em>no</em> client
 *       certificate: the API server tries client certificates before tokens, so the token is what
 *       it authenticates. {@link #connectionWithToken(String)} makes such a connection.</li>
 *   <li>A request without one, from a client that presented the client certificate this proxy's
 *       authority issued ({@link #connection()}), is forwarded as the upstream connection's admin:
 *       with its client certificate, or its bearer token when it has one instead.</li>
 *   <li>A request with neither gets {@code 401 Unauthorized} from the proxy. A client certificate that
 *       this proxy's authority did not issue fails the TLS handshake.</li>
 * </ul>
 *
 * <h2>Faults</h2>
 * Request-level faults are {@linkplain #inject injected} for the requests a {@link RequestMatcher}
 * selects, and stay in place until {@link Injection#remove() removed} or spent; injections are
 * consulted in the order they were made and the first that matches (and has requests left) applies,
 * except {@link Fault#none()}, which only counts. Connection-level faults are switches:
 * {@link #halfOpen(boolean)}, {@link #dropAll(boolean)}, {@link #cutConnections()} and
 * {@link #loseConnections()}. A change
 * applies to requests that arrive after it; a request already being forwarded keeps the fault (or
 * none) it started with.
 *
 * <h2>Threads and lifecycle</h2>
 * {@link #start} binds the port and starts an accept thread; each client connection gets a thread of
 * its own (and a second one while a response streams, to notice the client leaving, or while a
 * connection is upgraded), all from
 * {@link FaultProxyOptions#threadFactory()}. Every method is thread-safe. {@link #close()} is
 * idempotent: it stops accepting, cuts every open connection (held requests included, which are
 * not forwarded), and deletes the kubeconfig folder when the proxy created it.
 */
public interface FaultProxy extends AutoCloseable {

    /** Starts a proxy in front of {@code upstream} with {@link FaultProxyOptions#defaults()}. */
    static FaultProxy start(ClusterConnection upstream) {
        return start(upstream, FaultProxyOptions.defaults());
    }

    /**
     * Starts a proxy in front of {@code upstream}: creates its certificate authority and
     * certificates, binds a free loopback port, writes the admin kubeconfig and starts accepting.
     * The upstream server is not contacted until a request arrives.
     *
     * @throws java.io.UncheckedIOException if the port cannot be bound or the kubeconfig written
     */
    static FaultProxy start(ClusterConnection upstream, FaultProxyOptions options) {
        return BlockingFaultProxy.start(upstream, options);
    }

    /** The proxy's base URL, {@code https://127.0.0.1:<port>}. */
    URI uri();

    /**
     * The upstream's admin, through the proxy: the proxy's URL and CA, and a client certificate the
     * proxy's authority issued; its kubeconfig is a file in the proxy's folder.
     */
    ClusterConnection connection();

    /**
     * A connection through the proxy that authenticates with {@code bearerToken} (for example the
     * token of {@code ServiceAccounts.connectAs}) and presents no client certificate, so the server
     * sees the token's identity. Writes a new kubeconfig file in the proxy's folder on each call.
     */
    ClusterConnection connectionWithToken(String bearerToken);

    /**
     * Puts {@code fault} in place for every request that {@code requests} matches, until
     * {@link Injection#remove()}.
     */
    Injection inject(RequestMatcher requests, Fault fault);

    /**
     * Puts {@code fault} in place for the next {@code times} requests that {@code requests} matches;
     * then the injection is spent and later requests pass (a "storm" of {@code times} errors).
     *
     * @throws IllegalArgumentException if {@code times} is not positive
     */
    Injection inject(RequestMatcher requests, Fault fault, int times);

    /**
     * While on, the network stalls without closing anything, as when a peer disappears without a
     * FIN: new connections are accepted and never answered (not even the TLS handshake), and open
     * connections forward nothing more in either direction. Only the client's own timeouts end its
     * requests. Switching it off lets the stalled connections go on where they stopped.
     */
    void halfOpen(boolean on);

    /**
     * While on, every connection is refused: those open now are cut at once (see
     * {@link #cutConnections()}), and new ones are accepted and reset (TCP RST before the TLS
     * handshake), which a client sees as "connection reset". Switching it off serves new
     * connections again.
     */
    void dropAll(boolean on);

    /**
     * Cuts every connection open now, once, as when the server dies: the proxy closes the client's
     * TCP connection without a TLS close_notify, wherever its HTTP message was (a watch ends in
     * error, a request in flight fails), and closes its upstream connections. New connections are
     * served as usual.
     */
    void cutConnections();

    /**
     * Loses every connection open now, for good, as when a NAT entry or a load balancer's flow
     * disappears: those connections forward nothing more in either direction and are never closed
     * by the proxy, so only the client's own stall detection or timeouts end them (a watch stays
     * silent while the server goes on sending events). New connections are served as usual.
     */
    void loseConnections();

    /** How many client connections are open through the proxy now. */
    int openConnections();

    /** Stops the proxy; see the class documentation. Idempotent. */
    @Override
    void close();
}

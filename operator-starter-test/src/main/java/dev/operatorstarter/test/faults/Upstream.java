package dev.operatorstarter.test.faults;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.internal.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;

/**
 * The API server behind the proxy: where it is, and the two ways to reach it, as its admin (with
 * the upstream connection's client certificate, or its token) and with no client certificate (for
 * requests that carry a token of their own), and the head a request takes on the way there.
 */
final class Upstream {

    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 10_000;
    private static final String[] HOP_BY_HOP = {"Connection", "Keep-Alive", "Proxy-Connection", "TE", "Trailer",
        "Transfer-Encoding", "Upgrade"};

    private final String host;
    private final int port;
    private final String hostHeader;
    private final String basePath;
    private final SSLSocketFactory admin;
    private final SSLSocketFactory anonymous;
    /** The admin's bearer token, when the upstream connection authenticates with one instead of a certificate. */
    private final @Nullable String adminToken;

    private Upstream(URI server, SSLSocketFactory admin, SSLSocketFactory anonymous, @Nullable String adminToken) {
        String literal = server.getHost();
        if (literal == null) {
            throw new IllegalArgumentException("the upstream server URL has no host: " + server);
        }
        this.host = literal.startsWith("[") ? literal.substring(1, literal.length() - 1) : literal;
        this.port = server.getPort() > 0 ? server.getPort() : 443;
        this.hostHeader = literal + ":" + port;
        String path = server.getRawPath() == null ? "" : server.getRawPath();
        this.basePath = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        this.admin = admin;
        this.anonymous = anonymous;
        this.adminToken = adminToken;
    }

    static Upstream of(ClusterConnection connection) {
        if (!"https".equalsIgnoreCase(connection.server().getScheme())) {
            throw new IllegalArgumentException("the fault proxy forwards to HTTPS servers only, not " + connection.server());
        }
        return new Upstream(connection.server(), connection.sslContext().getSocketFactory(),
                Tls.sslContext(connection.certificateAuthorityPem(), null, null).getSocketFactory(),
                connection.clientCertificatePem() == null ? connection.bearerToken() : null);
    }

    /** Opens a TCP connection (not yet TLS) to the server. */
    Socket connect() throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            return socket;
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Runs the TLS handshake over {@code socket}, verifying the server, offering HTTP/1.1 only, and
     * presenting the admin's client certificate when {@code asAdmin} (and it has one).
     */
    SSLSocket secure(Socket socket, boolean asAdmin) throws IOException {
        SSLSocket tls = (SSLSocket) (asAdmin ? admin : anonymous).createSocket(socket, host, port, true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        parameters.setApplicationProtocols(new String[] {"http/1.1"});
        tls.setSSLParameters(parameters);
        tls.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
        tls.startHandshake();
        tls.setSoTimeout(0); // a watch may send nothing for minutes
        return tls;
    }

    /** The request target on the server: its base path (if the URL has one) and {@code target}. */
    private String target(String target) {
        return basePath + target;
    }

    /**
     * The head of {@code request} as it goes to the server: without hop-by-hop headers, with the
     * server's target and {@code Host}, the admin's token unless the request carries its own, the
     * length of the body read whole, and the upgrade the client asked for.
     *
     * @param identityBody whether the response body must not be compressed (a body fault reads its lines)
     */
    HttpHead request(HttpHead request, boolean ownToken, boolean identityBody, boolean upgrade, byte[] body) {
        HttpHead head = request.without(HOP_BY_HOP).without("Host", "Content-Length", "Expect")
                .withStartLine(request.method() + " " + target(request.target()) + " HTTP/1.1")
                .with("Host", hostHeader);
        if (identityBody) {
            head = head.without("Accept-Encoding"); // the body faults read lines, not gzip
        }
        if (!ownToken && adminToken != null) {
            head = head.with("Authorization", "Bearer " + adminToken);
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

    @Override
    public String toString() {
        return "Upstream[" + hostHeader + basePath + "]";
    }
}

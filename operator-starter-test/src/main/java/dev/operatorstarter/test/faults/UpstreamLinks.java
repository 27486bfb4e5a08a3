package dev.operatorstarter.test.faults;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Set;
import javax.net.ssl.SSLSocket;
import org.jspecify.annotations.Nullable;

/**
 * One client connection's upstream connections, one per identity: as the admin, and with the
 * request's own token. Each is opened when first needed, and again when the server closed it. Used
 * by the connection's thread only; every socket joins the connection's {@link SocketGroup}, so
 * cutting the connection closes them too.
 */
final class UpstreamLinks {

    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE");

    /** An upstream connection and its streams. */
    static final class Link {
        final SSLSocket socket;
        final InputStream in;
        final OutputStream out;
        boolean used;

        Link(SSLSocket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), ProxiedConnection.BUFFER);
            this.out = new BufferedOutputStream(socket.getOutputStream(), ProxiedConnection.BUFFER);
        }

        /**
         * Sends the request and reads the response head, skipping interim (1xx) responses other than 101.
         *
         * @throws NotSent when the request could not be written
         * @throws EOFException when the server closed the connection before a byte of the response
         */
        HttpHead exchange(HttpHead request, byte[] body) throws IOException {
            try {
                request.writeTo(out);
                out.write(body);
                out.flush();
            } catch (IOException e) {
                throw new NotSent(e);
            }
            used = true;
            while (true) {
                HttpHead response = HttpHead.read(in);
                if (response == null) {
                    throw new EOFException("the server closed the connection without a response");
                }
                if (response.status() >= 200 || response.status() == 101) {
                    return response;
                }
            }
        }
    }

    /** A response head, and the link it came on, whose input holds the response's body. */
    record Exchange(Link link, HttpHead response) {
    }

    /** A request that could not be written to the server. */
    private static final class NotSent extends IOException {

        private static final long serialVersionUID = 1L;

        NotSent(IOException cause) {
            super("the request could not be sent: " + cause.getMessage(), cause);
        }
    }

    private final Upstream upstream;
    private final SocketGroup sockets;
    private @Nullable Link asAdmin;
    private @Nullable Link withToken;

    UpstreamLinks(Upstream upstream, SocketGroup sockets) {
        this.upstream = upstream;
        this.sockets = sockets;
    }

    /**
     * Sends the request on the link for its identity and reads the response head. A connection the
     * server closed while idle fails the next request before any answer: the request goes again on
     * a new connection if it cannot have reached the server, or may be repeated.
     */
    Exchange exchange(boolean ownToken, String method, HttpHead request, byte[] body) throws IOException {
        Link link = link(ownToken);
        boolean reused = link.used;
        try {
            return new Exchange(link, link.exchange(request, body));
        } catch (IOException e) {
            if (!reused || !(e instanceof NotSent || IDEMPOTENT.contains(method))) {
                throw e;
            }
            drop(link);
            link = link(ownToken);
            return new Exchange(link, link.exchange(request, body));
        }
    }

    private Link link(boolean ownToken) throws IOException {
        Link link = ownToken ? withToken : asAdmin;
        if (link != null && !link.socket.isClosed()) {
            return link;
        }
        Socket socket = upstream.connect();
        sockets.add(socket);
        link = new Link(upstream.secure(socket, !ownToken));
        if (ownToken) {
            withToken = link;
        } else {
            asAdmin = link;
        }
        return link;
    }

    /** Closes {@code link}; the next request for its identity opens a new one. */
    void drop(Link link) {
        SocketGroup.closeQuietly(link.socket);
        if (link == asAdmin) {
            asAdmin = null;
        }
        if (link == withToken) {
            withToken = null;
        }
    }

    void closeAll() {
        if (asAdmin != null) {
            drop(asAdmin);
        }
        if (withToken != null) {
            drop(withToken);
        }
    }
}

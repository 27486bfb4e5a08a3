package dev.operatorstarter.test.faults;

import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.internal.Pki;
import dev.operatorstarter.test.internal.Tls;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * A stand-in for the API server behind the proxy in unit tests: HTTPS on loopback with its own
 * authority, answering each request with what the script returns, and recording what it received
 * (including whether the caller presented a client certificate, and on which connection).
 */
final class ScriptedServer implements AutoCloseable {

    /** A request as the server saw it. */
    record Received(HttpHead head, byte[] body, boolean clientCertificate, int connection) {

        String method() {
            return head.method();
        }

        String target() {
            return head.target();
        }

        String header(String name) {
            return head.header(name);
        }
    }

    /** Writes a whole response (reading more, after a 101); returns whether the connection stays open. */
    @FunctionalInterface
    interface Reply {
        boolean write(InputStream in, OutputStream out) throws IOException;
    }

    private final Pki pki = Pki.newAuthority("scripted-server-ca");
    private final Pki.Issued admin = pki.client("scripted-admin", "system:masters");
    private final Function<Received, Reply> script;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Socket> sockets = new ConcurrentLinkedQueue<>();
    private final AtomicInteger connections = new AtomicInteger();
    private final ServerSocket server;
    private final SSLSocketFactory tls;

    ScriptedServer(Function<Received, Reply> script) throws IOException {
        this.script = script;
        Pki.Issued serving = pki.serving("scripted-server", List.of("localhost"), List.of("127.0.0.1"));
        this.tls = Tls.sslContext(pki.caPem(), serving.certificatePem(), serving.keyPem()).getSocketFactory();
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    }

    ScriptedServer start() {
        Thread acceptor = new Thread(this::accept, "scripted-server");
        acceptor.setDaemon(true);
        acceptor.start();
        return this;
    }

    /** The admin's connection to this server, as a test cluster's would be. */
    ClusterConnection connection(Path kubeconfig) {
        return new ClusterConnection(URI.create("https://127.0.0.1:" + server.getLocalPort()), pki.caPem(),
                admin.certificatePem(), admin.keyPem(), null, kubeconfig);
    }

    BlockingQueue<Received> received() {
        return received;
    }

    /** How many connections were accepted so far. */
    int connections() {
        return connections.get();
    }

    static Reply json(int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return (in, out) -> {
            out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            return true;
        };
    }

    /** A chunked 200 with one chunk per event, then the last chunk. */
    static Reply events(String... events) {
        return (in, out) -> {
            chunkedHead(out);
            for (String event : events) {
                chunk(out, event);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        };
    }

    static void chunkedHead(OutputStream out) throws IOException {
        out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    static void chunk(OutputStream out, String content) throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                int number = connections.incrementAndGet();
                Thread thread = new Thread(() -> serve(socket, number), "scripted-server-" + number);
                thread.setDaemon(true);
                thread.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket, int number) {
        try (SSLSocket tlsSocket = (SSLSocket) tls.createSocket(socket, null, true)) {
            SSLParameters parameters = tlsSocket.getSSLParameters();
            parameters.setWantClientAuth(true);
            tlsSocket.setSSLParameters(parameters);
            tlsSocket.startHandshake();
            boolean certificate;
            try {
                certificate = tlsSocket.getSession().getPeerCertificates().length > 0;
            } catch (SSLPeerUnverifiedException e) {
                certificate = false;
            }
            InputStream in = new BufferedInputStream(tlsSocket.getInputStream());
            OutputStream out = new BufferedOutputStream(tlsSocket.getOutputStream());
            while (true) {
                HttpHead head = HttpHead.read(in);
                if (head == null) {
                    return;
                }
                Received request = new Received(head, HttpBody.ofRequest(head, in).readAll(1 << 20), certificate, number);
                received.add(request);
                if (!script.apply(request).write(in, out)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the proxy went away
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }
}

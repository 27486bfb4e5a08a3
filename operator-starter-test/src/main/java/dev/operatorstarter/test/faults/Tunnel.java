package dev.operatorstarter.test.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An upgraded connection (after a 101 response): bytes copied both ways, one direction on a thread
 * of its own, until either side ends; then the connection is cut, which closes both sides. Each
 * piece passes the connection's gate first, as the proxy's other traffic does.
 */
final class Tunnel {

    private static final Logger log = LoggerFactory.getLogger(Tunnel.class);

    private final ThreadFactory threads;
    private final ConnectionGate gate;

    /** A tunnel through the connection that {@code gate} guards; {@code threads} makes its second thread. */
    Tunnel(ThreadFactory threads, ConnectionGate gate) {
        this.threads = threads;
        this.gate = gate;
    }

    /** Sends {@code response} to the client, then copies bytes both ways until either side ends. */
    void run(InputStream clientIn, OutputStream clientOut, UpstreamLinks.Link link, HttpHead response)
            throws IOException {
        response.writeTo(clientOut);
        clientOut.flush();
        Thread upstreamToClient = threads.newThread(() -> {
            copy(link.in, clientOut);
            gate.abort();
        });
        upstreamToClient.start();
        copy(clientIn, link.out);
        gate.abort();
    }

    private void copy(InputStream from, OutputStream to) {
        byte[] buffer = new byte[ProxiedConnection.BUFFER];
        try {
            for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
                if (!gate.pass()) {
                    gate.abort();
                    return;
                }
                to.write(buffer, 0, read);
                to.flush();
            }
        } catch (IOException e) {
            log.debug("fault proxy: an upgraded connection ended: {}", e.toString());
        }
    }
}

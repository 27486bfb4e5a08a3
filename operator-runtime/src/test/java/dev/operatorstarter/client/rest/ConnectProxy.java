package dev.operatorstarter.client.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** A minimal HTTP CONNECT proxy that records the targets it was asked to tunnel to. */
final class ConnectProxy implements AutoCloseable {

    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<String> targets = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();

    /** The Proxy-Authorization headers of the CONNECT requests. */
    List<String> authorizations() {
        return List.copyOf(authorizations);
    }

    ConnectProxy() throws IOException {
        executor.execute(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket client = socket.accept();
                    executor.execute(() -> tunnel(client));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }

    List<String> targets() {
        return List.copyOf(targets);
    }

    private void tunnel(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            String request = line(in);
            for (String header = line(in); !header.isEmpty(); header = line(in)) {
                if (header.toLowerCase(java.util.Locale.ROOT).startsWith("proxy-authorization:")) {
                    authorizations.add(header.substring(header.indexOf(':') + 1).trim());
                }
            }
            String target = request.split(" ")[1];
            targets.add(request.split(" ")[0] + " " + target);
            String[] hostPort = target.split(":");
            try (Socket upstream = new Socket(hostPort[0], Integer.parseInt(hostPort[1]))) {
                client.getOutputStream().write("HTTP/1.1 200 Connection established\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                client.getOutputStream().flush();
                executor.execute(() -> pipe(in, upstreamOut(upstream)));
                pipe(upstream.getInputStream(), client.getOutputStream());
            }
        } catch (IOException e) {
            // a side closed
        }
    }

    private static OutputStream upstreamOut(Socket upstream) {
        try {
            return upstream.getOutputStream();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void pipe(InputStream from, OutputStream to) {
        byte[] buffer = new byte[8192];
        try {
            int read;
            while ((read = from.read(buffer)) >= 0) {
                to.write(buffer, 0, read);
                to.flush();
            }
        } catch (IOException e) {
            // a side closed
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        socket.close();
        executor.shutdownNow();
    }
}

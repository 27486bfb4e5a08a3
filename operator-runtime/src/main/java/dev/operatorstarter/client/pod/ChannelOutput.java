package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.WebSocket;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.Exceptions;

/**
 * Writes to one channel of a channel-framed WebSocket: each write goes out as messages of at most
 * 32 KiB, prefixed with the channel, and returns once they are on the socket (or fails after
 * {@code timeout}). Closing runs {@code onClose} once (the v5 protocol's close signal, or nothing).
 */
final class ChannelOutput extends OutputStream {

    private static final int MAX_CHUNK = 32 * 1024;

    private final WebSocket socket;
    private final int channel;
    private final Duration timeout;
    private final String what;
    private final Runnable onClose;
    private final AtomicBoolean closed = new AtomicBoolean();

    ChannelOutput(WebSocket socket, int channel, Duration timeout, String what, Runnable onClose) {
        this.socket = socket;
        this.channel = channel;
        this.timeout = timeout;
        this.what = what;
        this.onClose = onClose;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int from, int length) throws IOException {
        if (closed.get()) {
            throw new IOException("the " + what + " is closed");
        }
        for (int at = from; at < from + length; at += MAX_CHUNK) {
            int size = Math.min(MAX_CHUNK, from + length - at);
            byte[] message = new byte[size + 1];
            message[0] = (byte) channel;
            System.arraycopy(bytes, at, message, 1, size);
            send(message);
        }
    }

    private void send(byte[] message) throws IOException {
        try {
            socket.send(message).block(timeout);
        } catch (RuntimeException e) {
            if (Exceptions.unwrap(e) instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while writing the " + what);
            }
            throw new IOException("writing the " + what + " failed: " + WebSocketExecSession.rootMessage(e), e);
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            onClose.run();
        }
    }
}

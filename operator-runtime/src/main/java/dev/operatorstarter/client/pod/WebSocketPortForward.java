package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.WebSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One forwarded port on the port-forward protocol over WebSocket ({@code v4.channel.k8s.io}, as
 * the kubelet serves {@code portforward}): channel 0 carries the data and channel 1 the errors of
 * the one port asked for; the first message the server sends on each starts with the port as two
 * bytes, little-endian, which is checked and dropped. The client's data goes on channel 0 as is.
 */
final class WebSocketPortForward implements PortForward {

    private static final int DATA = 0;
    private static final int ERROR = 1;

    private final WebSocket socket;
    private final int port;
    private final String what;
    private final Object lock = new Object();
    private final ChannelPipe input;
    private final ChannelOutput output;
    private final ChannelReceiver receiver;
    private final boolean[] portSeen = new boolean[2];
    private final ByteArrayOutputStream error = new ByteArrayOutputStream();

    WebSocketPortForward(WebSocket socket, int port, String what, Duration writeTimeout) {
        this.socket = socket;
        this.port = port;
        this.what = what;
        this.input = new ChannelPipe(lock, this::pump);
        this.output = new ChannelOutput(socket, DATA, writeTimeout, "connection of " + what, () -> { });
        // channel 0 goes through message() too, which strips its port prefix
        this.receiver = new ChannelReceiver(new ChannelPipe[0], input::full, this::message, this::ended);
    }

    WebSocketPortForward start() {
        socket.receive().subscribe(receiver);
        return this;
    }

    private void pump() {
        receiver.pump();
    }

    private void message(int channel, byte[] data) {
        if (channel != DATA && channel != ERROR) {
            return;
        }
        byte[] rest = data;
        synchronized (lock) {
            if (!portSeen[channel]) {
                if (data.length < 2) {
                    fail("the server's first message on channel " + channel + " has no port");
                    return;
                }
                int answered = (data[0] & 0xff) | (data[1] & 0xff) << 8;
                if (answered != port) {
                    fail("the server answered for port " + answered + " on channel " + channel);
                    return;
                }
                portSeen[channel] = true;
                rest = Arrays.copyOfRange(data, 2, data.length);
            }
            if (channel == ERROR) {
                error.writeBytes(rest);
                if (error.size() > 0) {
                    input.end(new IOException(what + " failed: " + error.toString(StandardCharsets.UTF_8)));
                }
                return;
            }
        }
        input.offer(rest);
    }

    private void fail(String problem) {
        input.end(new IOException(what + " failed: " + problem));
        socket.close();
    }

    private void ended(@Nullable Throwable failure) {
        input.end(failure == null ? null : new IOException(what + " broke: " + WebSocketExecSession.rootMessage(failure),
                failure));
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public InputStream input() {
        return input;
    }

    @Override
    public OutputStream output() {
        return output;
    }

    @Override
    public void close() {
        input.end(null);
        socket.close();
    }
}

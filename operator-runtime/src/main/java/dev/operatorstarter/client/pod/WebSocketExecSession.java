package dev.operatorstarter.client.pod;

import dev.operatorstarter.client.rest.WebSocket;
import dev.operatorstarter.internal.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * An exec or attach session on the remote-command protocol over WebSocket ({@code v4} and
 * {@code v5.channel.k8s.io}): channels 0 stdin, 1 stdout, 2 stderr, 3 the status (a
 * {@code metav1.Status}, see {@link ExitStatus}), 4 resize ({@code {"Width":w,"Height":h}}); on v5,
 * the message {@code [255, 0]} closes stdin.
 *
 * <p>As in client-go, a connection that the server closes normally without a status means success;
 * one that breaks, or closes with any other code, before a status is a failure.
 */
final class WebSocketExecSession implements ExecSession {

    private static final Logger log = LoggerFactory.getLogger(WebSocketExecSession.class);

    static final String V5 = "v5.channel.k8s.io";
    static final String V4 = "v4.channel.k8s.io";
    private static final int STDIN = 0;
    private static final int STDOUT = 1;
    private static final int STDERR = 2;
    private static final int STATUS = 3;
    private static final int RESIZE = 4;
    private static final int CLOSE = 255;
    /** How long to wait for the close code once the messages ended: it comes with or before their end. */
    private static final Duration CLOSE_CODE_WAIT = Duration.ofSeconds(5);

    private final WebSocket socket;
    private final String what;
    private final ExecOptions options;
    private final Duration writeTimeout;
    private final Object lock = new Object();
    private final ChannelPipe stdout;
    private final ChannelPipe stderr;
    private final ChannelOutput stdin;
    private final ByteArrayOutputStream status = new ByteArrayOutputStream();
    private final CompletableFuture<Integer> exitCode = new CompletableFuture<>();
    private final ChannelReceiver receiver;
    private volatile @Nullable Disposable timer;

    /**
     * @param what names the session in messages: verb, Pod, namespace, container
     * @param writeTimeout how long a write to stdin (or a resize) may wait for the socket
     */
    WebSocketExecSession(WebSocket socket, String what, ExecOptions options, Duration writeTimeout) {
        String protocol = socket.subprotocol();
        if (!V5.equals(protocol) && !V4.equals(protocol)) {
            socket.close();
            throw new ExecException(what + " failed: the server chose subprotocol '" + protocol + "', not "
                    + V5 + " or " + V4 + " (a server older than Kubernetes 1.4, or a proxy that drops the header)");
        }
        this.socket = socket;
        this.what = what;
        this.options = options;
        this.writeTimeout = writeTimeout;
        Runnable drained = this::pump;
        this.stdout = options.stdout() ? new ChannelPipe(lock, drained) : ChannelPipe.empty(lock);
        this.stderr = options.stderr() ? new ChannelPipe(lock, drained) : ChannelPipe.empty(lock);
        this.stdin = new ChannelOutput(socket, STDIN, writeTimeout, "stdin of " + what, this::closeStdin);
        this.receiver = new ChannelReceiver(new ChannelPipe[] {null, stdout, stderr},
                () -> stdout.full() || stderr.full(), this::control, this::ended);
    }

    /** Starts reading the connection and the time limit; called once, after the constructor. */
    WebSocketExecSession start() {
        socket.receive().subscribe(receiver);
        Duration timeout = options.timeout();
        if (timeout != null) {
            timer = Mono.delay(timeout).subscribe(tick -> fail(new ExecException(what + " did not finish within its "
                    + timeout.toMillis() + " ms timeout; the session was closed")));
        }
        return this;
    }

    private void pump() {
        receiver.pump();
    }

    private void control(int channel, byte[] data) {
        if (channel != STATUS) {
            return; // the servers write nothing else; an unknown channel is ignored as client-go does
        }
        synchronized (lock) {
            status.writeBytes(data);
        }
    }

    /** The connection ended: the status decides the exit code, then the streams end. */
    private void ended(@Nullable Throwable error) {
        byte[] json;
        synchronized (lock) {
            json = status.toByteArray();
        }
        if (error != null && json.length == 0) {
            fail(new ExecException(what + " broke before the command's exit status: " + rootMessage(error), error));
            return;
        }
        if (json.length > 0) {
            try {
                exitCode.complete(ExitStatus.exitCode(json, what));
            } catch (ExecException e) {
                exitCode.completeExceptionally(e);
            }
        } else {
            // ended() runs on an I/O thread: wait for the close code without blocking
            socket.closeCode().timeout(CLOSE_CODE_WAIT, Mono.just(1006)).defaultIfEmpty(1006).onErrorReturn(1006)
                    .subscribe(code -> {
                if (code == 1000) {
                    exitCode.complete(0);
                } else {
                    exitCode.completeExceptionally(new ExecException(what + " ended without an exit status (close code "
                            + code + ")"));
                }
            });
        }
        endStreams(null);
    }

    /** The innermost cause's message: the transport's own messages name the URL, which holds the command. */
    static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private void fail(ExecException failure) {
        exitCode.completeExceptionally(failure);
        endStreams(new IOException(failure.getMessage(), failure));
        socket.close();
    }

    private void endStreams(@Nullable IOException failure) {
        stdout.end(failure);
        stderr.end(failure);
        Disposable limit = timer;
        if (limit != null) {
            limit.dispose();
        }
    }

    /**
     * Sends v5's close signal for stdin. Best effort: a command that already ended may have closed
     * the connection first (a race the caller cannot see), and a broken connection shows in the
     * exit code anyway.
     */
    private void closeStdin() {
        if (V5.equals(socket.subprotocol()) && options.stdin() && !exitCode.isDone()) {
            try {
                socket.send(new byte[] {(byte) CLOSE, STDIN}).block(writeTimeout);
            } catch (RuntimeException e) {
                log.debug("Closing the stdin of {} was not sent: {}", what, rootMessage(e));
            }
        }
    }

    @Override
    public String protocol() {
        return socket.subprotocol();
    }

    @Override
    public OutputStream stdin() {
        if (!options.stdin()) {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    throw new IOException("the stdin of " + what + " was not opened: ExecOptions.stdin(true)");
                }
            };
        }
        return stdin;
    }

    @Override
    public InputStream stdout() {
        return stdout;
    }

    @Override
    public InputStream stderr() {
        return stderr;
    }

    @Override
    public CompletableFuture<Integer> exitCode() {
        return exitCode;
    }

    @Override
    public void resize(int width, int height) {
        if (!options.tty()) {
            throw new IllegalStateException("resize needs a terminal: ExecOptions.tty(true) for " + what);
        }
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("width and height must be at least 1, were " + width + "x" + height);
        }
        byte[] size = Json.MAPPER.writeValueAsBytes(Map.of("Width", width, "Height", height));
        byte[] message = new byte[size.length + 1];
        message[0] = RESIZE;
        System.arraycopy(size, 0, message, 1, size.length);
        socket.send(message).block(writeTimeout);
    }

    @Override
    public ExecResult collect(Duration deadline) {
        long end = System.nanoTime() + deadline.toNanos();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            while (true) {
                stdout.drainTo(out);
                stderr.drainTo(err);
                synchronized (lock) {
                    if (stdout.finished() && stderr.finished()) {
                        break;
                    }
                    long left = end - System.nanoTime();
                    if (left <= 0) {
                        throw timedOut(deadline);
                    }
                    if (stdout.available() == 0 && stderr.available() == 0) {
                        TimeUnit.NANOSECONDS.timedWait(lock, left);
                    }
                }
            }
            long left = Math.max(0, end - System.nanoTime());
            int code = exitCode.get(left, TimeUnit.NANOSECONDS);
            return new ExecResult(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), code);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new ExecException(what + " was interrupted while collecting its output", e);
        } catch (TimeoutException e) {
            throw timedOut(deadline);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof ExecException failure ? failure
                    : new ExecException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        } catch (IOException e) {
            throw e.getCause() instanceof ExecException failure ? failure
                    : new ExecException(what + " failed while reading: " + e.getMessage(), e);
        }
    }

    private ExecException timedOut(Duration deadline) {
        close();
        return new ExecException(what + " did not finish within " + deadline.toMillis() + " ms; the session was closed");
    }

    @Override
    public void close() {
        if (!exitCode.isDone()) {
            fail(new ExecException(what + " was closed before the command ended"));
        } else {
            socket.close();
        }
    }
}

package dev.operatorstarter.client.pod;

import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A running exec or attach session (client-go's {@code remotecommand} stream; fabric8's
 * {@code ExecWatch}). Open when returned; {@link #close()} ends it (try-with-resources).
 *
 * <p><b>Streams.</b> {@link #stdout()} and {@link #stderr()} are read from one connection: each
 * buffers up to 256 KiB, and while either is full the connection is not read, so the command's
 * writes wait (backpressure; read both, or use {@link #collect}). They end (read returns -1) when
 * the command ends, and throw an {@code IOException} when the connection breaks. Writing to
 * {@link #stdin()} blocks until the bytes are on the socket; closing it signals end of input to the
 * command when the server speaks {@code v5.channel.k8s.io} (Kubernetes 1.30 and later) and is
 * ignored on {@code v4.channel.k8s.io}, which cannot signal it (see {@link #protocol()}).
 *
 * <p><b>Exit.</b> {@link #exitCode()} completes with 0 on success, with the code of a command that
 * exited non-zero, and exceptionally with an {@link ExecException} for any other failure the
 * server reports, a connection that broke before the exit status, a malformed status, a session
 * past its {@link ExecOptions#timeout}, or a {@link #close()} before the end.
 *
 * <p>Thread-safe. Blocking methods must not be called on a Reactor I/O thread.
 */
public interface ExecSession extends AutoCloseable {

    /** The subprotocol the server chose: {@code v5.channel.k8s.io} or {@code v4.channel.k8s.io}. */
    String protocol();

    /** The command's standard input; without {@link ExecOptions#stdin}, writes fail. */
    OutputStream stdin();

    /** The command's standard output; empty without {@link ExecOptions#stdout}. */
    InputStream stdout();

    /** The command's standard error; empty without {@link ExecOptions#stderr} or with a terminal. */
    InputStream stderr();

    /** The exit code, once the command ended (see the class comment for failures). */
    CompletableFuture<Integer> exitCode();

    /**
     * Sets the terminal's size in columns and rows.
     *
     * @throws IllegalStateException without {@link ExecOptions#tty}
     */
    void resize(int width, int height);

    /**
     * Reads stdout and stderr to their end and waits for the exit code, within {@code deadline}:
     * the short commands of an operator ({@code pg_isready}, a backup trigger). Keeps the whole
     * output in memory. Blocks.
     *
     * @throws ExecException when the session fails, or, after closing the session, when the deadline passes
     */
    ExecResult collect(Duration deadline);

    /** Ends the session: closes the connection; an exit code not yet known fails. Idempotent. */
    @Override
    void close();
}

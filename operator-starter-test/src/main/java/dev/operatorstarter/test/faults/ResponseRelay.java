package dev.operatorstarter.test.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.function.BooleanSupplier;

/**
 * Forwards one response from the server to the client: unchanged, piece by piece, or through a
 * {@link BodyRewrite}. Before each write it passes the connection's gate (the proxy's half-open
 * switch and the connection's own loss), and cuts the connection when the gate says stop.
 */
final class ResponseRelay {

    private final OutputStream out;
    private final BooleanSupplier pass;
    private final Runnable abort;

    /**
     * @param out the client's side
     * @param pass waits while the connection stalls; {@code false} once it ended
     * @param abort cuts the connection
     */
    ResponseRelay(OutputStream out, BooleanSupplier pass, Runnable abort) {
        this.out = out;
        this.pass = pass;
        this.abort = abort;
    }

    /** Forwards a response unchanged, piece by piece; returns whether its body was read to its end. */
    boolean pass(HttpHead head, HttpBody body) throws IOException {
        if (!pass.getAsBoolean()) {
            return stopped();
        }
        head.writeTo(out);
        out.flush();
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        for (byte[] piece = body.next(); piece != null; piece = body.next()) {
            if (!pass.getAsBoolean()) {
                return stopped();
            }
            if (chunked) {
                HttpBody.writeChunk(out, piece);
            } else {
                out.write(piece);
            }
            out.flush();
        }
        if (chunked) {
            HttpBody.writeLastChunk(out);
            out.flush();
        }
        return true;
    }

    /**
     * Forwards a response through {@code rewrite}. A body with a length is read whole first, so the
     * rewritten one can announce its own length; other bodies stream. Returns whether the body was
     * read to its end.
     */
    boolean rewrite(HttpHead head, HttpBody body, BodyRewrite rewrite) throws IOException {
        boolean consumed = false;
        BodyRewrite.Step step = rewrite.start();
        if (body.framing() == HttpBody.Framing.LENGTH) {
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            kept.writeBytes(step.write());
            while (step.action() == BodyRewrite.Action.CONTINUE) {
                byte[] piece = body.next();
                consumed = piece == null;
                step = piece == null ? rewrite.end() : rewrite.accept(piece);
                kept.writeBytes(step.write());
            }
            if (!pass.getAsBoolean()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.END) {
                head = head.without("Content-Length").with("Content-Length", Integer.toString(kept.size()));
            }
            head.writeTo(out);
            kept.writeTo(out);
            out.flush();
            if (step.action() == BodyRewrite.Action.ABORT) {
                abort.run();
            }
            return consumed;
        }
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        head.writeTo(out);
        out.flush();
        while (true) {
            if (!pass.getAsBoolean()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.ABORT) {
                if (chunked) {
                    HttpBody.writeChunkStart(out, step.declared(), step.write());
                } else {
                    out.write(step.write());
                }
                out.flush();
                abort.run();
                return false;
            }
            if (chunked) {
                HttpBody.writeChunk(out, step.write());
            } else {
                out.write(step.write());
            }
            if (step.action() == BodyRewrite.Action.END) {
                if (chunked) {
                    HttpBody.writeLastChunk(out);
                }
                out.flush();
                return consumed;
            }
            out.flush();
            byte[] piece = body.next();
            consumed = piece == null;
            step = piece == null ? rewrite.end() : rewrite.accept(piece);
        }
    }

    /** The connection ended while this response waited: cut it. Returns {@code false} for "stop". */
    private boolean stopped() {
        abort.run();
        return false;
    }
}

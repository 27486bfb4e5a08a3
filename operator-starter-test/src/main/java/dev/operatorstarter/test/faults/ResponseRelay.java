package dev.operatorstarter.test.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Forwards one response from the server to the client: unchanged, piece by piece, or through a
 * {@link BodyRewrite}. Before each write it passes the connection's gate (the proxy's half-open
 * switch and the connection's own loss), and cuts the connection when the gate says stop.
 */
final class ResponseRelay {

    private final OutputStream out;
    private final ConnectionGate gate;

    /** Forwards to {@code out}, the client's side of the connection that {@code gate} guards. */
    ResponseRelay(OutputStream out, ConnectionGate gate) {
        this.out = out;
        this.gate = gate;
    }

    /** Forwards a response unchanged, piece by piece; returns whether its body was read to its end. */
    boolean pass(HttpHead head, HttpBody body) throws IOException {
        if (!gate.pass()) {
            return stopped();
        }
        head.writeTo(out);
        out.flush();
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        for (byte[] piece = body.next(); piece != null; piece = body.next()) {
            if (!gate.pass()) {
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
            if (!gate.pass()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.END) {
                head = head.without("Content-Length").with("Content-Length", Integer.toString(kept.size()));
            }
            head.writeTo(out);
            kept.writeTo(out);
            out.flush();
            if (step.action() == BodyRewrite.Action.ABORT) {
                gate.abort();
            }
            return consumed;
        }
        boolean chunked = body.framing() == HttpBody.Framing.CHUNKED;
        head.writeTo(out);
        out.flush();
        while (true) {
            if (!gate.pass()) {
                return stopped();
            }
            if (step.action() == BodyRewrite.Action.ABORT) {
                if (chunked) {
                    HttpBody.writeChunkStart(out, step.declared(), step.write());
                } else {
                    out.write(step.write());
                }
                out.flush();
                gate.abort();
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
        gate.abort();
        return false;
    }
}

package dev.operatorstarter.test.faults;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * Rewrites a response body for the body faults, event by event (an event is a line ending in
 * {@code \n}): passes the first {@code afterEvents} events through, then cuts, truncates or replaces
 * what follows. Fed the body's pieces as they arrive; each call says what to write and whether to go
 * on. Not thread-safe: one per response.
 */
final class BodyRewrite {

    /** What to do after writing {@link Step#write()}. */
    enum Action {
        /** Keep reading the body. */
        CONTINUE,
        /** End the HTTP message correctly now (the rest of the body is not forwarded). */
        END,
        /** Close the connection abruptly now, the message unfinished. */
        ABORT
    }

    /**
     * Bytes to write and what to do next.
     *
     * @param write the bytes to write now
     * @param declared how many bytes the write claims to be, for a chunk's size line: more than
     *        {@code write} when the message is cut in the middle of an event
     */
    record Step(byte[] write, int declared, Action action) {

        static Step of(byte[] write, Action action) {
            return new Step(write, write.length, action);
        }
    }

    private enum Mode { CUT, TRUNCATE, MALFORM }

    private static final byte[] MALFORMED = Fault.Malform.BODY.getBytes(StandardCharsets.UTF_8);

    private final Mode mode;
    private final int afterEvents;
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream(); // the event after the kept ones
    private int events;
    private boolean finished;

    private BodyRewrite(Mode mode, int afterEvents) {
        this.mode = mode;
        this.afterEvents = afterEvents;
    }

    /** The rewrite a body fault asks for, or {@code null} for a fault that leaves the body alone. */
    static @Nullable BodyRewrite of(Fault fault) {
        if (fault instanceof Fault.CutStream cut) {
            return new BodyRewrite(Mode.CUT, cut.afterEvents());
        }
        if (fault instanceof Fault.Truncate truncate) {
            return new BodyRewrite(Mode.TRUNCATE, truncate.afterEvents());
        }
        if (fault instanceof Fault.Malform malform) {
            return new BodyRewrite(Mode.MALFORM, malform.afterEvents());
        }
        return null;
    }

    /** Called before the first piece: a body malformed from its start needs no byte from upstream. */
    Step start() {
        if (mode == Mode.MALFORM && afterEvents == 0) {
            finished = true;
            return Step.of(MALFORMED, Action.END);
        }
        return Step.of(new byte[0], Action.CONTINUE);
    }

    /** Called with each piece of the body, in order. */
    Step accept(byte[] piece) {
        if (finished) {
            throw new IllegalStateException("the rewrite has finished");
        }
        ByteArrayOutputStream write = new ByteArrayOutputStream();
        int from = 0;
        while (from < piece.length && events < afterEvents) {
            int newline = indexOf(piece, (byte) '\n', from);
            int end = newline < 0 ? piece.length : newline + 1;
            write.write(piece, from, end - from);
            from = end;
            if (newline >= 0) {
                events++;
            }
        }
        if (events < afterEvents) {
            return Step.of(write.toByteArray(), Action.CONTINUE);
        }
        if (mode == Mode.MALFORM) {
            finished = true;
            write.writeBytes(MALFORMED);
            return Step.of(write.toByteArray(), Action.END);
        }
        int newline = indexOf(piece, (byte) '\n', from);
        pending.write(piece, from, (newline < 0 ? piece.length : newline + 1) - from);
        if (newline < 0) {
            return Step.of(write.toByteArray(), Action.CONTINUE);
        }
        return cutPending(write);
    }

    /** Called when the body ended before the rewrite finished; an unfinished last event is cut like any other. */
    Step end() {
        if (finished || pending.size() == 0) {
            finished = true;
            return Step.of(new byte[0], Action.END);
        }
        return cutPending(new ByteArrayOutputStream());
    }

    /** Half of the pending event (at least one byte of a non-empty one), then END or ABORT. */
    private Step cutPending(ByteArrayOutputStream write) {
        finished = true;
        byte[] event = pending.toByteArray();
        int content = event.length > 0 && event[event.length - 1] == '\n' ? event.length - 1 : event.length;
        int kept = content == 0 ? 0 : Math.max(1, content / 2);
        int before = write.size();
        write.write(event, 0, kept);
        byte[] bytes = write.toByteArray();
        if (mode == Mode.CUT) {
            return new Step(bytes, before + event.length, Action.ABORT);
        }
        return Step.of(bytes, Action.END);
    }

    private static int indexOf(byte[] bytes, byte wanted, int from) {
        for (int i = from; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "BodyRewrite[" + mode + " after " + afterEvents + " events, " + events + " seen"
                + (finished ? ", finished" : "") + "]";
    }
}

package dev.operatorstarter.client.pod;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import org.jspecify.annotations.Nullable;

/**
 * The bytes of one channel of a multiplexed connection, as an {@link InputStream}: the receiver
 * {@link #offer}s each message's payload, readers take them. It reports {@link #full()} past its
 * capacity, so the receiver stops reading the connection, and calls {@code drained} after a read,
 * so the receiver can start again. Its monitor is the session's {@code lock}, shared by every pipe
 * of a session, so one wait can watch them all.
 */
final class ChannelPipe extends InputStream {

    static final int CAPACITY = 256 * 1024;

    private final Object lock;
    private final Runnable drained;
    private final Deque<byte[]> chunks = new ArrayDeque<>();
    private int offset;
    private long buffered;
    private boolean ended;
    private @Nullable IOException failure;

    ChannelPipe(Object lock, Runnable drained) {
        this.lock = lock;
        this.drained = drained;
    }

    /** A pipe that has ended, for a channel the session did not open. */
    static ChannelPipe empty(Object lock) {
        ChannelPipe pipe = new ChannelPipe(lock, () -> { });
        pipe.end(null);
        return pipe;
    }

    void offer(byte[] payload) {
        if (payload.length == 0) {
            return;
        }
        synchronized (lock) {
            if (ended) {
                return;
            }
            chunks.add(payload);
            buffered += payload.length;
            lock.notifyAll();
        }
    }

    /** Ends the stream after what is buffered: normally, or with {@code failure} thrown by the next read. */
    void end(@Nullable IOException failure) {
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true;
            this.failure = failure;
            lock.notifyAll();
        }
    }

    boolean full() {
        synchronized (lock) {
            return buffered >= CAPACITY;
        }
    }

    /** Whether every byte has been read and the stream ended (normally or not). */
    boolean finished() {
        synchronized (lock) {
            return ended && chunks.isEmpty();
        }
    }

    /** Moves what is buffered into {@code into} without waiting; throws the failure once finished. */
    void drainTo(ByteArrayOutputStream into) throws IOException {
        synchronized (lock) {
            while (!chunks.isEmpty()) {
                byte[] chunk = chunks.poll();
                into.write(chunk, offset, chunk.length - offset);
                buffered -= chunk.length - offset;
                offset = 0;
            }
            if (ended && failure != null) {
                throw failure;
            }
        }
        drained.run();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int read = read(one, 0, 1);
        return read < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int from, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        int read;
        synchronized (lock) {
            while (chunks.isEmpty() && !ended) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading");
                }
            }
            if (chunks.isEmpty()) {
                if (failure != null) {
                    throw failure;
                }
                return -1;
            }
            byte[] chunk = chunks.peek();
            read = Math.min(length, chunk.length - offset);
            System.arraycopy(chunk, offset, into, from, read);
            offset += read;
            buffered -= read;
            if (offset == chunk.length) {
                chunks.poll();
                offset = 0;
            }
        }
        drained.run();
        return read;
    }

    @Override
    public int available() {
        synchronized (lock) {
            return (int) Math.min(Integer.MAX_VALUE, buffered);
        }
    }

    /** Stops reading: drops what is buffered, and later messages. */
    @Override
    public void close() {
        synchronized (lock) {
            chunks.clear();
            buffered = 0;
            offset = 0;
            ended = true;
            lock.notifyAll();
        }
        drained.run();
    }
}

package dev.operatorstarter.client.pod;

import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * Reads a channel-framed connection (the first byte of each message names its channel, the rest
 * is the channel's data), one message at a time: data channels go to their {@link ChannelPipe},
 * others to {@code control}. The next message is requested only while {@code full} says no, so a
 * reader that falls behind stops the socket reads (and the server's writes) instead of
 * filling memory.
 */
final class ChannelReceiver extends BaseSubscriber<byte[]> {

    private final @Nullable ChannelPipe[] pipes;
    private final BooleanSupplier full;
    private final BiConsumer<Integer, byte[]> control;
    private final Consumer<@Nullable Throwable> ended;
    private boolean outstanding;
    private boolean stopped;

    /**
     * @param pipes the pipe of each data channel, by channel number (null entries for none)
     * @param full whether a reader is behind (a pipe past its capacity): no message is requested then
     * @param control receives the messages of the other channels (channel, data)
     * @param ended called once when the connection ends: with null when it ended normally
     */
    ChannelReceiver(@Nullable ChannelPipe[] pipes, BooleanSupplier full, BiConsumer<Integer, byte[]> control,
            Consumer<@Nullable Throwable> ended) {
        this.pipes = pipes.clone();
        this.full = full;
        this.control = control;
        this.ended = ended;
    }

    @Override
    protected void hookOnSubscribe(Subscription subscription) {
        pump();
    }

    @Override
    protected void hookOnNext(byte[] message) {
        synchronized (this) {
            outstanding = false;
        }
        if (message.length > 0) {
            int channel = message[0] & 0xff;
            byte[] data = Arrays.copyOfRange(message, 1, message.length);
            ChannelPipe pipe = channel < pipes.length ? pipes[channel] : null;
            if (pipe != null) {
                pipe.offer(data);
            } else {
                control.accept(channel, data);
            }
        }
        pump();
    }

    /** Requests the next message unless one is requested already or a reader is behind. */
    void pump() {
        synchronized (this) {
            if (outstanding || stopped || upstream() == null || full.getAsBoolean()) {
                return;
            }
            outstanding = true;
        }
        request(1);
    }

    @Override
    protected void hookOnComplete() {
        stop(null);
    }

    @Override
    protected void hookOnError(Throwable error) {
        stop(error);
    }

    private void stop(@Nullable Throwable error) {
        synchronized (this) {
            stopped = true;
        }
        ended.accept(error);
    }
}

package dev.operatorstarter.client.pod;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

/**
 * The receiver and its pipes under concurrency: messages for two channels arrive on one thread
 * while two readers take them on others; every byte arrives once and in order per channel, and the
 * receiver never asks for more while a pipe is past its capacity, so a reader that has not started
 * stops the source.
 */
class ChannelReceiverTest {

    private static final int MESSAGES = 2_000;
    private static final int SIZE = 1_000;

    @Test
    void twoSlowReadersGetEveryByteInOrderWhileTheBufferedBytesStayBounded() throws Exception {
        Object lock = new Object();
        ChannelReceiver[] receiver = new ChannelReceiver[1];
        ChannelPipe stdout = new ChannelPipe(lock, () -> receiver[0].pump());
        ChannelPipe stderr = new ChannelPipe(lock, () -> receiver[0].pump());
        AtomicLong maxBuffered = new AtomicLong();
        AtomicLong emitted = new AtomicLong();
        List<Throwable> ends = new CopyOnWriteArrayList<>();
        receiver[0] = new ChannelReceiver(new ChannelPipe[] {null, stdout, stderr},
                () -> stdout.full() || stderr.full(), (channel, data) -> { },
                error -> {
                    if (error != null) {
                        ends.add(error);
                    }
                    stdout.end(null);
                    stderr.end(null);
                });
        // message i goes to channel 1 or 2 and carries i as its first four bytes
        Flux<byte[]> messages = Flux.range(0, MESSAGES).map(i -> {
            byte[] message = new byte[SIZE + 1];
            message[0] = (byte) (1 + i % 2);
            ByteBuffer.wrap(message, 1, 4).putInt(i);
            return message;
        }).doOnNext(message -> {
            emitted.incrementAndGet();
            maxBuffered.accumulateAndGet(stdout.available() + (long) stderr.available(), Math::max);
        })
                .subscribeOn(Schedulers.boundedElastic());

        messages.subscribe(receiver[0]);
        // nobody reads yet: the receiver stops once a pipe is full, long before the last message
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> stdout.full() || stderr.full());
        assertThat(emitted.get()).isLessThanOrEqualTo(2L * ChannelPipe.CAPACITY / SIZE + 2);

        CompletableFuture<List<Integer>> out = CompletableFuture.supplyAsync(() -> readSlowly(stdout));
        CompletableFuture<List<Integer>> err = CompletableFuture.supplyAsync(() -> readSlowly(stderr));

        List<Integer> even = out.get(60, TimeUnit.SECONDS);
        List<Integer> odd = err.get(60, TimeUnit.SECONDS);
        assertThat(ends).isEmpty();
        assertThat(even).hasSize(MESSAGES / 2).isSorted().allMatch(i -> i % 2 == 0);
        assertThat(odd).hasSize(MESSAGES / 2).isSorted().allMatch(i -> i % 2 == 1);
        // a message is requested only while both pipes are under capacity: one more may arrive
        assertThat(maxBuffered.get()).isLessThanOrEqualTo(2L * ChannelPipe.CAPACITY + SIZE);
    }

    /** Reads whole messages in small pieces, returning the number at the start of each. */
    private static List<Integer> readSlowly(InputStream pipe) {
        List<Integer> numbers = new ArrayList<>();
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        byte[] piece = new byte[97];
        try {
            for (int read; (read = pipe.read(piece)) >= 0; ) {
                message.write(piece, 0, read);
                while (message.size() >= SIZE) {
                    byte[] bytes = message.toByteArray();
                    numbers.add(ByteBuffer.wrap(bytes, 0, 4).getInt());
                    message.reset();
                    message.write(bytes, SIZE, bytes.length - SIZE);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return numbers;
    }
}

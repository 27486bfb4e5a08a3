package dev.operatorstarter.autoconfigure.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ConnectionLimitTest {

    @Test
    void connectionsBeyondTheCapAreClosedAndAClosedOneFreesItsPlace() {
        ConnectionLimit limit = new ConnectionLimit(2);
        EmbeddedChannel first = new EmbeddedChannel();
        EmbeddedChannel second = new EmbeddedChannel();
        EmbeddedChannel third = new EmbeddedChannel();

        assertThat(limit.admit(first)).isTrue();
        assertThat(limit.admit(second)).isTrue();
        assertThat(limit.admit(third)).isFalse();
        assertThat(third.isOpen()).isFalse();
        assertThat(limit.open()).isEqualTo(2);

        first.close();
        assertThat(limit.open()).isEqualTo(1);
        assertThat(limit.admit(new EmbeddedChannel())).isTrue();
    }

    @Test
    void manyThreadsAdmittingAtOnceNeverGetMoreThanTheCapOpenAndClosingAllLeavesNoneCounted() throws Exception {
        int max = 50;
        ConnectionLimit limit = new ConnectionLimit(max);
        ConcurrentLinkedQueue<EmbeddedChannel> admitted = new ConcurrentLinkedQueue<>();
        ExecutorService threads = Executors.newFixedThreadPool(8);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < 8; t++) {
                done.add(threads.submit(() -> {
                    go.await();
                    for (int i = 0; i < 100; i++) {
                        EmbeddedChannel channel = new EmbeddedChannel();
                        if (limit.admit(channel)) {
                            admitted.add(channel);
                        } else {
                            assertThat(channel.isOpen()).isFalse();
                        }
                        assertThat(limit.open()).isBetween(0, max);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> future : done) {
                future.get(1, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(admitted).hasSize(max);
        assertThat(limit.open()).isEqualTo(max);
        admitted.forEach(EmbeddedChannel::close);
        assertThat(limit.open()).isZero();
    }
}

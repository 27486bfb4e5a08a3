package dev.operatorstarter.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final AtomicLong now = new AtomicLong();

    @Test
    void aFullBucketServesTheBurstAtOnceThenSpacesRequestsAtTheRate() {
        TokenBucket bucket = new TokenBucket(10, 3, now::get);

        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void tokensRefillWithTimeUpToTheBurst() {
        TokenBucket bucket = new TokenBucket(10, 2, now::get);
        bucket.reserve();
        bucket.reserve();

        now.addAndGet(Duration.ofSeconds(10).toNanos());

        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aRefundedReservationShortensTheNextWait() {
        TokenBucket bucket = new TokenBucket(10, 1, now::get);
        bucket.reserve();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));

        bucket.refund(); // that caller gave up

        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
    }
}

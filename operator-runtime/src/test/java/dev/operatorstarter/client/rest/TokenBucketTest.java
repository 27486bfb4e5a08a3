package dev.operatorstarter.client.rest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TokenBucketTest {

    private final FakeTimeSource time = new FakeTimeSource();

    @Test
    void aFullBucketServesTheBurstAtOnceThenSpacesRequestsAtTheRate() {
        TokenBucket bucket = new TokenBucket(10, 3, time);

        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void tokensRefillWithTimeUpToTheBurst() {
        TokenBucket bucket = new TokenBucket(10, 2, time);
        bucket.reserve();
        bucket.reserve();

        time.advance(Duration.ofSeconds(10));

        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isZero();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
    }

    @Test
    void aRefundedReservationShortensTheNextWait() {
        TokenBucket bucket = new TokenBucket(10, 1, time);
        bucket.reserve();
        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));

        bucket.refund(); // that caller gave up

        assertThat(bucket.reserve()).isEqualTo(Duration.ofMillis(100));
    }
}

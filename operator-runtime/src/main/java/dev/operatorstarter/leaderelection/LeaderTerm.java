package dev.operatorstarter.leaderelection;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * One term of leadership, as the elector hands it to {@link LeaderCallbacks#onStartedLeading}. It
 * is valid until it ends and only while the last successful renewal is younger than the renew
 * deadline, judged on the elector's time source, so a term whose renewals hang stops being valid
 * on time even before the elector's thread ends it.
 */
final class LeaderTerm implements Leadership {

    private final Duration renewDeadline;
    private final TimeSource time;
    private final CountDownLatch ended = new CountDownLatch(1);
    private volatile long lastRenewNanos;
    /** The thread running {@code onStartedLeading} for this term, interrupted when the term ends. */
    volatile @Nullable Thread work;

    LeaderTerm(long acquiredNanos, Duration renewDeadline, TimeSource time) {
        this.lastRenewNanos = acquiredNanos;
        this.renewDeadline = renewDeadline;
        this.time = time;
    }

    /** A renewal succeeded; {@code nanos} is when its write was sent. */
    void renewed(long nanos) {
        lastRenewNanos = nanos;
    }

    void end() {
        ended.countDown();
    }

    @Override
    public boolean isValid() {
        return ended.getCount() > 0 && time.nanoTime() - lastRenewNanos < renewDeadline.toNanos();
    }

    @Override
    public void awaitEnd() throws InterruptedException {
        ended.await();
    }

    @Override
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}

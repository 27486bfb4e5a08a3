package dev.operatorstarter.testing;

import dev.operatorstarter.leaderelection.Leadership;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Leadership} the test drives, for unit tests of code that runs only while it leads
 * ({@code callbacks.onStartedLeading(term)}): valid until the test says it is not
 * ({@link #setValid}, as when renewals stop before the elector ends the term) or ends it
 * ({@link #end}, after which it is never valid again). Counts how often it was asked.
 *
 * <p>Thread-safe; starts valid.
 */
public final class FakeLeadership implements Leadership {

    private final CountDownLatch ended = new CountDownLatch(1);
    private final AtomicInteger checks = new AtomicInteger();
    private volatile boolean valid = true;

    /** Makes the term valid or not (it stays invalid once ended). */
    public void setValid(boolean valid) {
        this.valid = valid;
    }

    /** Ends the term for good and wakes its waiters. */
    public void end() {
        ended.countDown();
    }

    /** How often {@link #isValid()} was asked. */
    public int checks() {
        return checks.get();
    }

    @Override
    public boolean isValid() {
        checks.incrementAndGet();
        return valid && ended.getCount() > 0;
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

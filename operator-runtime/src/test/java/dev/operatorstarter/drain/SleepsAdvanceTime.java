package dev.operatorstarter.drain;

import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;

/**
 * A {@link FakeTimeSource} for code that waits on one thread: a sleep moves the fake time to its
 * end at once, and is recorded, so a test runs a drain's backoffs and polls on its own thread and
 * then reads the waits it made.
 */
final class SleepsAdvanceTime implements TimeSource {

    final FakeTimeSource fake = new FakeTimeSource();
    final List<Duration> sleeps = new ArrayList<>();

    @Override
    public long nanoTime() {
        return fake.nanoTime();
    }

    @Override
    public Instant now() {
        return fake.now();
    }

    @Override
    public void awaitUntil(Condition condition, long deadlineNanos) {
        throw new UnsupportedOperationException("a drain only sleeps");
    }

    @Override
    public void sleepUntil(long deadlineNanos) {
        Duration wait = Duration.ofNanos(Math.max(0, deadlineNanos - fake.nanoTime()));
        sleeps.add(wait);
        fake.advance(wait);
    }
}

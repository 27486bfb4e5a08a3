package dev.operatorstarter.cache;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.Exceptions;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;

/**
 * A watch's events read on the calling thread, with stall detection: once nothing has arrived for
 * the stall period, not even a bookmark, {@link #hasNext()} throws a {@link TimeoutException}
 * (wrapped by {@link Exceptions#propagate}) and the watch is cancelled.
 *
 * <p>The stall is judged on a {@link TimeSource}: the reader waits on it until the moment the
 * stall would be (the last arrival plus the period), so a fake time source drives it without real
 * time passing. No timer is scheduled per event: an arrival only notes when it came, and a reader
 * that wakes at the old deadline waits again for what is left since the last arrival.
 *
 * <p>Guarantees: events come out in the order they arrived, and an error or the completion after
 * them, so the events decoded before a failure are not lost. At most {@code prefetch} events are
 * requested ahead of the reader.
 *
 * <p>Threading: one thread reads ({@link #hasNext()}, {@link #next()}); the watch delivers on its
 * own. {@link #close()} cancels the watch and may be called from the reader; {@link #end()} from any
 * thread. An interrupt of the reader cancels the watch, keeps the interrupt flag and throws.
 */
final class StallWatchdog<E> implements Iterator<E>, AutoCloseable {

    private final Duration stall;
    private final long stallNanos;
    private final TimeSource time;
    private final int prefetch;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Queue<E> events = new ArrayDeque<>(); // guarded by lock
    private long lastArrival; // guarded by lock
    private boolean completed; // guarded by lock
    private @Nullable Throwable error; // guarded by lock
    private final Reader reader = new Reader();
    private int taken;

    private StallWatchdog(Duration stall, TimeSource time, int prefetch) {
        this.stall = Objects.requireNonNull(stall, "stall");
        this.stallNanos = TimeSource.saturatedNanos(stall);
        this.time = Objects.requireNonNull(time, "time");
        this.prefetch = prefetch;
    }

    /**
     * Subscribes to {@code events} and reads them, failing once {@code stall} passes on
     * {@code time} without one.
     */
    static <E> StallWatchdog<E> watch(Flux<E> events, Duration stall, TimeSource time, int prefetch) {
        if (prefetch <= 0) {
            throw new IllegalArgumentException("prefetch must be positive, was " + prefetch);
        }
        StallWatchdog<E> watchdog = new StallWatchdog<>(stall, time, prefetch);
        watchdog.lastArrival = time.nanoTime();
        events.subscribe(watchdog.reader);
        return watchdog;
    }

    /**
     * Waits for the next event, the end of the watch or the stall.
     *
     * @return false once the watch completed
     * @throws RuntimeException the watch's error, or a {@link TimeoutException} on a stall, both
     *     wrapped by {@link Exceptions#propagate} where checked
     */
    @Override
    public boolean hasNext() {
        lock.lock();
        try {
            while (events.isEmpty()) {
                if (error != null) {
                    throw Exceptions.propagate(error);
                }
                if (completed) {
                    return false;
                }
                long deadline = lastArrival + stallNanos < lastArrival ? Long.MAX_VALUE : lastArrival + stallNanos;
                if (time.nanosUntil(deadline) <= 0) {
                    reader.dispose();
                    throw Exceptions.propagate(new TimeoutException("no event for " + stall));
                }
                try {
                    time.awaitUntil(arrived, deadline);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    reader.dispose();
                    throw Exceptions.propagate(e);
                }
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public E next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the watch has ended");
        }
        E event;
        lock.lock();
        try {
            event = events.remove();
        } finally {
            lock.unlock();
        }
        // Ask for more once three quarters of the batch are taken, as Reactor's blocking iterable does.
        if (++taken >= prefetch - (prefetch >> 2)) {
            reader.request(taken);
            taken = 0;
        }
        return event;
    }

    /** Cancels the watch. */
    @Override
    public void close() {
        reader.dispose();
    }

    /**
     * Cancels the watch and ends it as if it had completed: a reader waiting in {@link #hasNext()}
     * wakes, and it and every later call return false once the events already arrived are taken.
     * May be called from any thread; its caller's way to stop a reader without an operator on
     * every event.
     */
    void end() {
        reader.dispose();
        arrive(() -> completed = true);
    }

    private void arrive(Runnable change) {
        lock.lock();
        try {
            change.run();
            lastArrival = time.nanoTime();
            arrived.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private final class Reader extends BaseSubscriber<E> {

        @Override
        protected void hookOnSubscribe(Subscription subscription) {
            subscription.request(prefetch);
        }

        @Override
        protected void hookOnNext(E event) {
            arrive(() -> events.add(event));
        }

        @Override
        protected void hookOnComplete() {
            arrive(() -> completed = true);
        }

        @Override
        protected void hookOnError(Throwable failure) {
            arrive(() -> error = failure);
        }
    }
}

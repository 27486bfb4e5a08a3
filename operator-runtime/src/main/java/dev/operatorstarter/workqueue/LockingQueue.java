package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Every queue interface in one class, guarded by one lock. Delayed items wait in a heap and are
 * moved into the queue by whichever thread next looks at it ({@code get}, {@code len}); a worker
 * waiting in {@code get} sleeps on the {@link TimeSource} until the earliest delayed item is due, so no
 * background thread is needed and nothing delayed is dropped.
 */
final class LockingQueue<T> implements RateLimitingQueue<T>, WorkQueueMetrics.QueueStats {

    private record Delayed<T>(long readyAt, long sequence, T item) {
    }

    private final String name;
    private final TimeSource clock;
    private final RateLimiter<T> rateLimiter;
    private final WorkQueueMetrics metrics;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<T> queue = new ArrayDeque<>();
    /** Items that need processing: queued, or added again while in progress. */
    private final Set<T> dirty = new HashSet<>();
    /** Item → when a worker took it. */
    private final Map<T, Long> processing = new HashMap<>();
    /** Item → when it was queued, for the queue-duration metric. */
    private final Map<T, Long> queuedAt = new HashMap<>();
    /** Item → when it is due; the heap may hold stale entries for items moved earlier. */
    private final Map<T, Long> waiting = new HashMap<>();
    private final PriorityQueue<Delayed<T>> heap = new PriorityQueue<>((a, b) -> a.readyAt() != b.readyAt()
            ? Long.compare(a.readyAt(), b.readyAt()) : Long.compare(a.sequence(), b.sequence()));
    private long sequence;
    private boolean shuttingDown;
    /** Set by {@code shutDownWithDrain} while it waits; {@code shutDown} clears it to end the wait. */
    private boolean draining;

    LockingQueue(String name, TimeSource clock, RateLimiter<T> rateLimiter, WorkQueueMetrics metrics) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.rateLimiter = Objects.requireNonNull(rateLimiter, "rateLimiter");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
    }

    @Override
    public void add(T item) {
        Objects.requireNonNull(item, "item");
        lock.lock();
        try {
            addLocked(item, clock.nanoTime());
        } finally {
            lock.unlock();
        }
    }

    private void addLocked(T item, long now) {
        if (shuttingDown || !dirty.add(item)) {
            return;
        }
        metrics.added(name);
        if (processing.containsKey(item)) {
            return; // queued again by done()
        }
        queue.add(item);
        queuedAt.put(item, now);
        changed.signal();
    }

    @Override
    public void addAfter(T item, Duration delay) {
        Objects.requireNonNull(item, "item");
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            long now = clock.nanoTime();
            if (delay.isNegative() || delay.isZero()) {
                addLocked(item, now);
                return;
            }
            long readyAt = now + delay.toNanos();
            Long current = waiting.get(item);
            if (current != null && current <= readyAt) {
                return; // already due earlier
            }
            waiting.put(item, readyAt);
            heap.add(new Delayed<>(readyAt, sequence++, item));
            changed.signalAll(); // a waiting worker may need to wake earlier
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void addRateLimited(T item) {
        Duration delay = rateLimiter.when(item);
        lock.lock();
        try {
            if (!shuttingDown) {
                metrics.retried(name);
            }
        } finally {
            lock.unlock();
        }
        addAfter(item, delay);
    }

    @Override
    public void forget(T item) {
        rateLimiter.forget(item);
    }

    @Override
    public int numRequeues(T item) {
        return rateLimiter.numRequeues(item);
    }

    /** Moves every delayed item that is due into the queue; returns the next due time or Long.MAX_VALUE. */
    private long promote(long now) {
        while (!heap.isEmpty()) {
            Delayed<T> next = heap.peek();
            Long due = waiting.get(next.item());
            if (due == null || due != next.readyAt()) {
                heap.poll(); // stale: the item was moved earlier and has been handled
                continue;
            }
            if (next.readyAt() - now > 0) {
                return next.readyAt();
            }
            heap.poll();
            waiting.remove(next.item());
            addLocked(next.item(), now);
        }
        return Long.MAX_VALUE;
    }

    @Override
    public int len() {
        lock.lock();
        try {
            if (!shuttingDown) {
                promote(clock.nanoTime());
            }
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                long now = clock.nanoTime();
                long nextDue = shuttingDown ? Long.MAX_VALUE : promote(now);
                if (!queue.isEmpty()) {
                    break;
                }
                if (shuttingDown) {
                    return Optional.empty();
                }
                if (nextDue == Long.MAX_VALUE) {
                    changed.await();
                } else {
                    clock.awaitUntil(changed, nextDue);
                }
            }
            T item = queue.poll();
            long now = clock.nanoTime();
            Long added = queuedAt.remove(item);
            metrics.taken(name, Duration.ofNanos(added == null ? 0 : Math.max(0, now - added)));
            processing.put(item, now);
            dirty.remove(item);
            return Optional.of(item);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void done(T item) {
        lock.lock();
        try {
            Long started = processing.remove(item);
            if (started == null) {
                return;
            }
            long now = clock.nanoTime();
            metrics.finished(name, Duration.ofNanos(Math.max(0, now - started)));
            if (dirty.contains(item)) {
                queue.add(item);
                queuedAt.put(item, now);
            }
            changed.signalAll(); // a worker may take the item; a drain may be complete
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            shutDownLocked();
            draining = false; // ends a drain in progress
        } finally {
            lock.unlock();
        }
    }

    private void shutDownLocked() {
        shuttingDown = true;
        waiting.clear(); // delayed items are dropped, as client-go's delaying queue drops them
        heap.clear();
        changed.signalAll();
    }

    @Override
    public boolean shutDownWithDrain(Duration timeout) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            long deadline = clock.nanoTime() + saturatedNanos(timeout);
            shutDownLocked();
            draining = true;
            while (draining && !drained()) {
                if (deadline - clock.nanoTime() <= 0) {
                    return false;
                }
                clock.awaitUntil(changed, deadline);
            }
            return drained();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing queued and nothing in progress (an item added again while in progress counts as queued). */
    private boolean drained() {
        return processing.isEmpty() && queue.isEmpty();
    }

    private static long saturatedNanos(Duration duration) {
        return duration.compareTo(Duration.ofDays(365 * 100)) > 0 ? Duration.ofDays(365 * 100).toNanos()
                : Math.max(0, duration.toNanos());
    }

    @Override
    public boolean isShuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int depth() {
        lock.lock();
        try {
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Duration unfinishedWork() {
        lock.lock();
        try {
            long now = clock.nanoTime();
            long total = 0;
            for (long started : processing.values()) {
                total += Math.max(0, now - started);
            }
            return Duration.ofNanos(total);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Duration longestRunning() {
        lock.lock();
        try {
            long now = clock.nanoTime();
            long longest = 0;
            for (long started : processing.values()) {
                longest = Math.max(longest, now - started);
            }
            return Duration.ofNanos(longest);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "work queue " + name;
    }
}

package dev.operatorstarter.workqueue;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The work queue and its delaying part, guarded by one lock (the rate-limiting part is
 * {@link RateLimitedQueue}, around it). Each item the queue holds has one
 * {@link QueueEntry} in one map, whatever its state (queued, in progress, or in progress and added
 * again), and {@link ReadyItems} holds those that wait, FIFO or by priority: an add → get → done
 * cycle costs a lookup in {@code add}, none in {@code get} (but the priority order's tree
 * operations), a lookup and a removal in {@code done}, and allocates the entry and its map node.
 * The entry keeps the item's priority while it is in progress, which is how a requeue
 * ({@code addAfter}, {@code addRetry}) keeps it.
 *
 * <p>Delayed items wait in {@link DelayedItems} and are moved into the queue by whichever thread next looks at
 * it ({@code get}, {@code len}); a worker waiting in {@code get} sleeps on the {@link TimeSource}
 * until the earliest delayed item is due, so no background thread is needed and nothing delayed
 * is dropped.
 *
 * <p>Metrics: when bound to {@link WorkQueueMetrics.Recorder#NONE} the queue never reads the
 * clock but to handle delays. Otherwise it reads it once per add, get and done, just before
 * taking the lock (so that no thread waits for the lock while another reads the clock; a
 * {@code get} that has to wait for an item reads it again when it has one): the reading of
 * {@code get} ends the queue duration and starts the work duration, that of {@code done} ends the
 * work duration and, for an item added again meanwhile, starts its next queue duration. The
 * timestamps live in the entries; the items in progress are linked in a list, which the gauges
 * walk when scraped. The recorder is called after the lock is released, but for the adds of
 * delayed items that fall due.
 */
final class LockingQueue<T> implements DelayingQueue<T>, WorkQueueMetrics.QueueStats {

    private final String name;
    private final TimeSource clock;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled once for each item queued, and for all at shutdown; workers wait on it in {@code get}. */
    private final Condition notEmpty = lock.newCondition();
    /** Signalled when a drain may be over; {@code shutDownWithDrain} waits on it. */
    private final Condition drainDone = lock.newCondition();
    private final Map<T, QueueEntry<T>> items = new HashMap<>();
    private final ReadyItems<T> queue;
    private int inProgress;
    /** The most recently taken item in progress, head of the list of all of them (with metrics only). */
    private @Nullable QueueEntry<T> lastTaken;
    private final DelayedItems<T> delayed = new DelayedItems<>();
    private boolean shuttingDown;
    /** Set by {@code shutDownWithDrain} while it waits; {@code shutDown} clears it to end the wait. */
    private boolean draining;
    /** Set once by {@link #bind}, before the queue is handed out. */
    private WorkQueueMetrics.Recorder recorder = WorkQueueMetrics.Recorder.NONE;
    /** Whether the recorder wants durations: timestamps are taken only then. */
    private boolean timed;

    /**
     * A queue handing items out by priority (the oldest item passed over at most
     * {@code oldestEvery - 1} times in a row) when {@code prioritized}, else in FIFO order.
     */
    LockingQueue(String name, TimeSource clock, boolean prioritized, int oldestEvery) {
        this.name = Objects.requireNonNull(name, "name");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.queue = new ReadyItems<>(prioritized, oldestEvery);
    }

    /** Binds this queue to {@code metrics}; called once by the builder, before the queue is shared. */
    void bind(WorkQueueMetrics metrics) {
        recorder = Objects.requireNonNull(metrics.bind(name, this), "recorder");
        timed = recorder != WorkQueueMetrics.Recorder.NONE;
    }

    /** The time now if metrics want it, else 0 (without reading the clock). */
    private long stamp() {
        return timed ? clock.nanoTime() : 0;
    }

    @Override
    public void add(T item) {
        add(item, PriorityQueue.NORMAL);
    }

    /** Adds {@code item} at {@code priority}; see {@link PriorityQueue#add(Object, int)}. */
    void add(T item, int priority) {
        Objects.requireNonNull(item, "item");
        long now = stamp(); // read before locking: the lock is not held while the clock is read
        boolean added;
        lock.lock();
        try {
            added = addLocked(item, priority, now);
        } finally {
            lock.unlock();
        }
        if (added) {
            recorder.added(priority);
        }
    }

    /**
     * Marks {@code item} dirty and queues it at {@code priority} and {@code now} unless it is in
     * progress; false if it was dirty already (its priority then rises to {@code priority} if that
     * is higher) or the queue shuts down.
     */
    private boolean addLocked(T item, int priority, long now) {
        if (shuttingDown) {
            return false;
        }
        QueueEntry<T> entry = items.get(item);
        if (entry == null) {
            entry = new QueueEntry<>(item);
            entry.priority = priority;
            items.put(item, entry);
        } else if (entry.dirty) {
            if (entry.inProgress) {
                entry.priority = Math.max(entry.priority, priority); // done() queues it at that
            } else {
                queue.raise(entry, priority);
            }
            return false;
        } else {
            entry.priority = priority; // in progress: what it was handed out at is past
        }
        entry.dirty = true;
        if (!entry.inProgress) {
            enqueue(entry, now);
        } // else done() queues it
        return true;
    }

    /** The priority a requeue of {@code item} gets: that of its entry, else {@link PriorityQueue#NORMAL}. */
    private int requeuePriority(T item) {
        QueueEntry<T> entry = items.get(item);
        return entry == null ? PriorityQueue.NORMAL : entry.priority;
    }

    private void enqueue(QueueEntry<T> entry, long now) {
        entry.queuedAt = now;
        queue.add(entry);
        notEmpty.signal();
    }

    @Override
    public void addAfter(T item, Duration delay) {
        addAfter(item, delay, null);
    }

    /** Adds {@code item} after {@code delay} at {@code priority}, or as a requeue when that is null. */
    void addAfter(T item, Duration delay, @Nullable Integer priority) {
        Objects.requireNonNull(item, "item");
        Objects.requireNonNull(delay, "delay");
        int at;
        boolean added;
        lock.lock();
        try {
            at = priority != null ? priority : requeuePriority(item);
            added = addAfterLocked(item, delay, at);
        } finally {
            lock.unlock();
        }
        if (added) {
            recorder.added(at);
        }
    }

    /** True if {@code item} was added at once (no delay). */
    private boolean addAfterLocked(T item, Duration delay, int priority) {
        if (shuttingDown) {
            return false;
        }
        if (delay.isNegative() || delay.isZero()) {
            return addLocked(item, priority, stamp());
        }
        if (!delayed.schedule(item, clock.nanoTime() + delay.toNanos(), priority)) {
            return false; // already due earlier
        }
        // A worker waiting for a later item (or for none) must wake earlier: one is enough, as
        // it then waits for this item, and each item it promotes wakes another.
        notEmpty.signal();
        return false;
    }

    /**
     * {@link #addAfter} for a retry: counts the retry unless the queue shuts down (one lock for both,
     * so a retry is never counted for an item the shutdown dropped).
     */
    void addRetry(T item, Duration delay) {
        Objects.requireNonNull(item, "item");
        boolean retried;
        int priority;
        boolean added;
        lock.lock();
        try {
            retried = !shuttingDown;
            priority = requeuePriority(item);
            added = addAfterLocked(item, delay, priority);
        } finally {
            lock.unlock();
        }
        if (retried) {
            recorder.retried();
        }
        if (added) {
            recorder.added(priority);
        }
    }

    /**
     * Moves every delayed item that is due into the queue; returns the next due time or
     * Long.MAX_VALUE. Reads the clock only when something is delayed.
     */
    private long promote() {
        if (delayed.isEmpty()) {
            return Long.MAX_VALUE;
        }
        long now = clock.nanoTime();
        for (DelayedItems.Due<T> due = delayed.pollDue(now); due != null; due = delayed.pollDue(now)) {
            if (addLocked(due.item(), due.priority(), now)) {
                recorder.added(due.priority());
            }
        }
        return delayed.nextDue();
    }

    @Override
    public int len() {
        lock.lock();
        try {
            if (!shuttingDown) {
                promote();
            }
            return queue.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Optional<T> get() throws InterruptedException {
        QueueEntry<T> entry;
        long now = stamp(); // read before locking, for an item that is there at once
        long waited = 0;
        lock.lockInterruptibly();
        try {
            boolean slept = false;
            while (true) {
                long nextDue = shuttingDown ? Long.MAX_VALUE : promote();
                if (!queue.isEmpty()) {
                    break;
                }
                if (shuttingDown) {
                    return Optional.empty();
                }
                if (nextDue == Long.MAX_VALUE) {
                    notEmpty.await();
                } else {
                    clock.awaitUntil(notEmpty, nextDue);
                }
                slept = true;
            }
            entry = queue.poll();
            entry.dirty = false;
            entry.inProgress = true;
            inProgress++;
            if (timed) {
                entry.startedAt = slept ? clock.nanoTime() : now;
                waited = entry.startedAt - entry.queuedAt;
                link(entry);
            }
        } finally {
            lock.unlock();
        }
        if (timed) {
            recorder.taken(Math.max(0, waited));
        }
        return Optional.of(entry.item);
    }

    @Override
    public void done(T item) {
        long now = stamp(); // read before locking
        long held;
        lock.lock();
        try {
            QueueEntry<T> entry = items.get(item);
            if (entry == null || !entry.inProgress) {
                return;
            }
            held = now - entry.startedAt;
            entry.inProgress = false;
            inProgress--;
            if (timed) {
                unlink(entry);
            }
            if (entry.dirty) {
                enqueue(entry, now); // added again while in progress
            } else {
                items.remove(item);
                if (draining && drained()) {
                    drainDone.signalAll();
                }
            }
        } finally {
            lock.unlock();
        }
        if (timed) {
            recorder.finished(Math.max(0, held));
        }
    }

    /** Puts {@code entry} at the head of the list of items in progress. */
    private void link(QueueEntry<T> entry) {
        entry.next = lastTaken;
        if (lastTaken != null) {
            lastTaken.previous = entry;
        }
        lastTaken = entry;
    }

    private void unlink(QueueEntry<T> entry) {
        if (entry.previous != null) {
            entry.previous.next = entry.next;
        } else {
            lastTaken = entry.next;
        }
        if (entry.next != null) {
            entry.next.previous = entry.previous;
        }
        entry.previous = null;
        entry.next = null;
    }

    @Override
    public void shutDown() {
        lock.lock();
        try {
            shutDownLocked();
            draining = false; // ends a drain in progress
            drainDone.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void shutDownLocked() {
        shuttingDown = true;
        delayed.clear(); // delayed items are dropped, as client-go's delaying queue drops them
        notEmpty.signalAll(); // workers waiting on an empty queue return empty
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
                clock.awaitUntil(drainDone, deadline);
            }
            return drained();
        } finally {
            lock.unlock();
        }
    }

    /** Nothing queued and nothing in progress (an item added again while in progress counts as queued). */
    private boolean drained() {
        return inProgress == 0 && queue.isEmpty();
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
    public int depth(int priority) {
        lock.lock();
        try {
            return queue.depth(priority);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Duration unfinishedWork() {
        lock.lock();
        try {
            long now = stamp();
            long total = 0;
            for (QueueEntry<T> entry = lastTaken; entry != null; entry = entry.next) {
                total += Math.max(0, now - entry.startedAt);
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
            long now = stamp();
            long longest = 0;
            for (QueueEntry<T> entry = lastTaken; entry != null; entry = entry.next) {
                longest = Math.max(longest, now - entry.startedAt);
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

package dev.operatorstarter.workqueue;

import java.time.Duration;

/**
 * A {@link RateLimitingQueue} whose items carry a priority (controller-runtime's
 * {@code priorityqueue.PriorityQueue}): an informer's initial list and its resyncs go in at
 * {@link #LOW}, fresh changes at {@link #NORMAL}, so that after a restart a user's change is not
 * queued behind every cached object. Build one with {@link WorkQueue#builder()}.
 *
 * <p>Guarantees, beyond those of {@link WorkQueue}:
 * <ul>
 *   <li>An item waits in the queue once, at the highest priority it was added with; adding it
 *       again with a higher priority moves it up (keeping its age), with a lower one changes
 *       nothing.</li>
 *   <li>Items come out highest priority first, and in the order they were first added within a
 *       priority; but the item that has waited longest is passed over at most {@code k - 1} times
 *       in a row ({@link WorkQueueBuilder#oldestEvery(int) k}, default 4): the next hand-out that
 *       would pass it over goes to it, whatever its priority. A hand-out that takes the oldest
 *       anyway spends no such turn, so a fresh item is handed out next unless the oldest has
 *       already been passed over {@code k - 1} times.</li>
 *   <li>So no item starves: an item is handed out within {@code k · (n + 1)} hand-outs of being
 *       queued, where {@code n} is the number of items that were waiting when it was queued,
 *       however fast items of higher priority keep arriving. With {@code W} workers whose
 *       reconciles take at most {@code r}, that is within {@code k · (n + 1) · r / W} of being
 *       queued, once a worker is free.</li>
 *   <li>A requeue keeps the priority: {@link #addAfter} and {@link #addRateLimited} of an item the
 *       queue holds (queued, or handed out and not yet done) queue it, when due, at that item's
 *       priority; an item the queue does not hold is
 *       requeued at {@link #NORMAL}. A delayed item asked for twice is due at the earlier time and
 *       the higher priority.</li>
 *   <li>The dirty/processing rules of {@link WorkQueue} hold unchanged: an item added while it is
 *       processed is queued again, at the priority of that add, once it is done.</li>
 * </ul>
 *
 * <p>The queue's order can be switched to plain FIFO ({@link WorkQueueBuilder#prioritized(boolean)}):
 * priorities are then still kept for the metrics and requeues, but do not change the order.
 */
public interface PriorityQueue<T> extends RateLimitingQueue<T> {

    /** The priority of an informer's initial list and resyncs (controller-runtime's {@code handler.LowPriority}). */
    int LOW = -100;

    /** The priority of {@link #add(Object)}: a fresh add, update or delete. */
    int NORMAL = 0;

    /** Queues {@code item} at {@link #NORMAL}, or raises it to {@code NORMAL} if it waits lower. */
    @Override
    default void add(T item) {
        add(item, NORMAL);
    }

    /**
     * Queues {@code item} at {@code priority} (higher comes first), unless it is queued already:
     * then its priority becomes the higher of the two. While the item is processed it is queued
     * again after {@code done}, at the highest priority it was added with meanwhile.
     */
    void add(T item, int priority);

    /**
     * Adds {@code item} at {@code priority} after {@code delay} (at once when zero or negative);
     * an item already waiting for a delay is due at the earlier of the two times and the higher
     * of the two priorities.
     */
    void addAfter(T item, Duration delay, int priority);
}

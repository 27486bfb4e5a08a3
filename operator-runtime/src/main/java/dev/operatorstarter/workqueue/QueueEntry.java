package dev.operatorstarter.workqueue;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link LockingQueue} knows of one item, while the item is dirty or in progress. Not
 * thread-safe: the queue reads and writes it under its lock.
 */
final class QueueEntry<T> {
    final T item;
    /** Needs processing: queued, or added again while in progress. Queued = dirty and not in progress. */
    boolean dirty;
    /** Handed out by {@code get} and not yet done. */
    boolean inProgress;
    /**
     * While queued, the priority it waits at; while in progress, the priority it was handed out
     * at, or (once added again) the one it will be queued at after {@code done}.
     */
    int priority;
    /** When it was queued, in queue order (set by {@link ReadyItems}); older items have smaller numbers. */
    long sequence;
    /**
     * Its place among the items of its priority: its {@link #sequence}, or a later number once its
     * priority was raised (it then joins the back of its new priority, as in controller-runtime).
     */
    long turn;
    /** When it was queued (with metrics only). */
    long queuedAt;
    /** When a worker took it (with metrics only). */
    long startedAt;
    /** Neighbours in the list of items in progress (with metrics only). */
    @Nullable QueueEntry<T> previous;
    @Nullable QueueEntry<T> next;

    QueueEntry(T item) {
        this.item = item;
    }
}

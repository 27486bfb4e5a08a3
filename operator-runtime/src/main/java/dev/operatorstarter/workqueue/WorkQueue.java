package dev.operatorstarter.workqueue;

import java.time.Duration;
import java.util.Optional;

/**
 * A FIFO of work items for a pool of workers (client-go's {@code workqueue.Interface}); a
 * {@link PriorityQueue} refines the order with priorities.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>An item is handed to at most one worker at a time: from {@link #get()} until its
 *       {@link #done}, adding it again only marks it dirty, and it is queued once more after
 *       {@code done}. So a change that arrives while an item is processed is never lost, and
 *       never processed concurrently with the earlier one.</li>
 *   <li>An item waiting in the queue is there once, however often it is added.</li>
 *   <li>Items come out in the order they were first added (among the items of one priority, in
 *       a {@link PriorityQueue}).</li>
 * </ul>
 *
 * <p>Shutdown: after {@link #shutDown()} adds are ignored (delayed items are dropped), {@code get}
 * still hands out what is queued and then returns empty; {@link #shutDownWithDrain} also waits
 * until every queued item has been handed out and every handed-out item is done.
 * Items must be compared by {@code equals}/{@code hashCode} (strings, records). Thread-safe.
 */
public interface WorkQueue<T> {

    /** A builder for a queue with all the features, priorities included; it serves as any of the queue interfaces. */
    static <T> WorkQueueBuilder<T> builder() {
        return new WorkQueueBuilder<>();
    }

    /**
     * Queues {@code item}, unless it is queued already (or being processed: then after
     * {@code done}); a {@link PriorityQueue} queues it at {@link PriorityQueue#NORMAL}.
     */
    void add(T item);

    /** The number of items waiting to be handed out (not counting those being processed or delayed). */
    int len();

    /**
     * Waits for an item and marks it as being processed; the caller must call {@link #done} with it.
     *
     * @return the item, or empty once the queue is shut down and has nothing left
     * @throws InterruptedException if interrupted while waiting
     */
    Optional<T> get() throws InterruptedException;

    /** Ends the processing of {@code item}; if it was added meanwhile, it is queued again. */
    void done(T item);

    /**
     * Stops accepting items and drops delayed ones; wakes workers waiting in {@link #get()} once
     * the queue is empty. Ends a {@link #shutDownWithDrain} in progress without waiting for it
     * (client-go's force shutdown, for example on a second signal).
     */
    void shutDown();

    /**
     * Shuts down like {@link #shutDown()}, then waits, up to {@code timeout} on the queue's clock,
     * until nothing is left: every item still queued has been handed out by {@link #get()}, every
     * item handed out is {@linkplain #done done}, and an item added again while it was in progress
     * (queued once more by its {@code done}) has been handed out and done too. Delayed items are
     * dropped, not waited for, and items added during the drain are ignored (client-go's
     * {@code ShutDownWithDrain}). Workers must keep calling {@code get} and {@code done} until
     * {@code get} returns empty, or the drain lasts until its timeout.
     *
     * @return true if the queue drained in time; false at the timeout, or when {@link #shutDown()}
     *     ended the wait first
     * @throws InterruptedException if interrupted while waiting
     */
    boolean shutDownWithDrain(Duration timeout) throws InterruptedException;

    boolean isShuttingDown();
}

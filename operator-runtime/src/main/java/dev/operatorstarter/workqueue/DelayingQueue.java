package dev.operatorstarter.workqueue;

import java.time.Duration;

/**
 * A {@link WorkQueue} that can add an item later (client-go's {@code DelayingInterface}). A
 * delayed item is never dropped: however many are waiting, each is added when its time comes
 * (until shutdown). Adding an item that is already waiting keeps the earlier of the two times.
 */
public interface DelayingQueue<T> extends WorkQueue<T> {

    /** Adds {@code item} after {@code delay} (at once when zero or negative). */
    void addAfter(T item, Duration delay);
}

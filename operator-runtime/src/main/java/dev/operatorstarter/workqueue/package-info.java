/**
 * Work queues (client-go's {@code util/workqueue}): a FIFO that never hands one item to two
 * workers at once and collapses repeated adds ({@link dev.operatorstarter.workqueue.WorkQueue}),
 * delays that never drop an item ({@link dev.operatorstarter.workqueue.DelayingQueue}),
 * retries paced by a {@link dev.operatorstarter.workqueue.RateLimiter}
 * ({@link dev.operatorstarter.workqueue.RateLimitingQueue}), and priorities that put fresh
 * changes ahead of an informer's initial list without starving it
 * ({@link dev.operatorstarter.workqueue.PriorityQueue}). Time is an input
 * ({@link dev.operatorstarter.time.TimeSource}). Depends on nothing else in this library but {@code time}.
 */
@NullMarked
package dev.operatorstarter.workqueue;

import org.jspecify.annotations.NullMarked;

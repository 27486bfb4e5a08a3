package dev.operatorstarter.manager;

import org.jspecify.annotations.Nullable;

/**
 * What one managed controller is doing, for health checks and status endpoints.
 *
 * @param name the controller's name
 * @param resource what it reconciles, as given to {@link Manager#add} or {@link Manager#addSharded}
 * @param running whether its workers run now
 * @param queueDepth requests waiting in its queue
 * @param startError why its last start failed (for example caches that did not sync); null when it started
 * @param sharded whether it is a shard's controller ({@link Manager#addSharded}), run in the terms of
 *     this replica's member Lease rather than the leader's
 * @param reconciles reconciles finished since the controller was built, whatever their result
 * @param failedReconciles those of them that threw or ran past the reconcile timeout
 */
public record ControllerStatus(String name, String resource, boolean running, int queueDepth,
        @Nullable String startError, boolean sharded, long reconciles, long failedReconciles) {
}

package dev.operatorstarter.manager;

import org.jspecify.annotations.Nullable;

/**
 * What one managed controller is doing, for health checks and status endpoints.
 *
 * @param name the controller's name
 * @param resource what it reconciles: the resource's plural, and its group outside the core
 * @param running whether its workers run now
 * @param queueDepth requests waiting in its queue
 * @param startError why its last start failed (for example caches that did not sync); null when it started
 * @param sharded whether it is a shard's controller, run in the terms of this replica's member Lease
 *     (its group is {@link RunnableGroup#MEMBER_TERM}); kept as a field of its own for the status JSON
 * @param reconciles reconciles finished since the controller was built, whatever their result
 * @param failedReconciles those of them that threw or ran past the reconcile timeout
 * @param group the group it runs in: {@link RunnableGroup#LEADER_TERM} by default,
 *     {@link RunnableGroup#ALWAYS} on every replica, {@link RunnableGroup#MEMBER_TERM} for a shard's controller
 */
public record ControllerStatus(String name, String resource, boolean running, int queueDepth,
        @Nullable String startError, boolean sharded, long reconciles, long failedReconciles, RunnableGroup group) {

    public ControllerStatus {
        if (sharded != (group == RunnableGroup.MEMBER_TERM)) {
            throw new IllegalArgumentException("sharded must be true exactly for the member term's group, not " + group);
        }
    }
}

package dev.operatorstarter.drain;

/** What a drain does with one of the node's Pods, decided by {@link PodFilter} before any eviction. */
sealed interface PodVerdict {

    /** Evict it, then wait until it is gone. */
    record Evict() implements PodVerdict {
    }

    /** It is already terminating: wait until it is gone, without evicting it again. */
    record Await() implements PodVerdict {
    }

    /** Do not touch it, for {@code reason}. */
    record LeaveAlone(String reason) implements PodVerdict {
    }

    /** It may not be evicted under the options, for {@code reason}; the drain stops before evicting anything. */
    record Refuse(String reason) implements PodVerdict {
    }
}

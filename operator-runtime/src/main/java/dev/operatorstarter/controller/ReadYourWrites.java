package dev.operatorstarter.controller;

import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides whether a request may be reconciled now that the cache may lag this controller's last
 * write to its object: wait while the cached copy is older than the write, but not longer than
 * {@link ControllerOptions#readYourWritesTimeout()} in a row. Time comes from the options' time
 * source, so the rule is tested on a fake clock.
 */
final class ReadYourWrites {

    /** Whether the cached copy may be reconciled. */
    enum Verdict {
        /** The cache shows the last write, or there was none: reconcile. */
        FRESH,
        /** The cache lags the last write: try again shortly. */
        WAIT,
        /** The cache has lagged for the whole timeout: reconcile anyway (and say so). */
        OVERDUE
    }

    private final WriteTracker writes;
    private final Duration timeout;
    private final TimeSource time;
    private final Map<ReconcileRequest, Long> staleSince = new ConcurrentHashMap<>();

    ReadYourWrites(WriteTracker writes, Duration timeout, TimeSource time) {
        this.writes = writes;
        this.timeout = timeout;
        this.time = time;
    }

    Verdict check(ReconcileRequest request, Optional<? extends HasMetadata> cached) {
        if (!writes.isStale(request, cached)) {
            staleSince.remove(request);
            return Verdict.FRESH;
        }
        long now = time.nanoTime();
        long since = staleSince.computeIfAbsent(request, r -> now);
        if (now - since < timeout.toNanos()) {
            return Verdict.WAIT;
        }
        staleSince.remove(request);
        return Verdict.OVERDUE;
    }

    /** The object was deleted: forget its last write and how long it waited. */
    void forget(ReconcileRequest request) {
        writes.forget(request);
        staleSince.remove(request);
    }
}

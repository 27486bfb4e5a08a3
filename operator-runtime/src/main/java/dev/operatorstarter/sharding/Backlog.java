package dev.operatorstarter.sharding;

import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * What waits in one assigner term, from the assigner's last decision on each object: drains
 * requested and not yet acknowledged (with when they began), and objects without a token that wait
 * for a member. Kept as decisions are made, so the gauges ({@code pending_drains},
 * {@code unassigned_objects}) and the status cost no pass over the caches; pushed to the metrics
 * after each change, under one lock so that the last value pushed is the current one. Objects are
 * told apart by resource and key. Thread-safe.
 */
final class Backlog {

    /** A drain being waited for: since when, and whether this assigner requested it (else it found it pending). */
    private record Drain(long sinceNanos, boolean requestedHere) {
    }

    private final String ring;
    private final ShardingMetrics metrics;
    private final TimeSource time;
    private final Map<String, Drain> drains = new HashMap<>(); // guarded by this
    private final Map<String, Set<String>> unassigned = new HashMap<>(); // guarded by this

    Backlog(String ring, ShardingMetrics metrics, TimeSource time) {
        this.ring = Objects.requireNonNull(ring, "ring");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Starts counting the objects of {@code resource} ({@code plural[.group]}) that wait for a
     * member, and reports that none do yet, so the gauges read 0 instead of being absent until
     * something waits.
     */
    synchronized void track(String resource) {
        unassigned.computeIfAbsent(resource, r -> new HashSet<>());
        metrics.unassigned(ring, resource, unassigned.get(resource).size());
        metrics.pendingDrains(ring, drains.size());
    }

    /**
     * Records the assigner's decision on object {@code key} of {@code resource} ({@code plural[.group]}),
     * whose step came to {@code outcome} and whose writes all succeeded; null when the object is gone.
     */
    synchronized void decided(String resource, String key, AssignmentStep.@Nullable Outcome outcome) {
        String id = resource + " " + key;
        if (outcome == AssignmentStep.Outcome.DRAIN_REQUESTED) {
            drains.put(id, new Drain(time.nanoTime(), true));
        } else if (outcome == AssignmentStep.Outcome.WAITING_FOR_THE_ACK) {
            drains.putIfAbsent(id, new Drain(time.nanoTime(), false)); // requested by an earlier leader
        } else {
            Drain ended = drains.remove(id);
            if (ended != null && ended.requestedHere() && outcome == AssignmentStep.Outcome.ASSIGNED) {
                metrics.handedOver(ring, time.since(ended.sinceNanos()));
            }
        }
        Set<String> waiting = unassigned.computeIfAbsent(resource, r -> new HashSet<>());
        boolean changed = outcome == AssignmentStep.Outcome.WAITING_FOR_A_MEMBER ? waiting.add(key) : waiting.remove(key);
        metrics.pendingDrains(ring, drains.size());
        if (changed) {
            metrics.unassigned(ring, resource, waiting.size());
        }
    }

    /** Drains requested and not yet acknowledged. */
    synchronized int pendingDrains() {
        return drains.size();
    }

    /** How long the oldest pending drain has waited; empty when none does. */
    synchronized Optional<Duration> oldestPendingDrain() {
        return drains.values().stream().mapToLong(Drain::sinceNanos).reduce((a, b) -> a - b < 0 ? a : b)
                .stream().mapToObj(time::since).findFirst();
    }

    /** Objects without a token that wait for a member, of every resource. */
    synchronized int unassigned() {
        return unassigned.values().stream().mapToInt(Set::size).sum();
    }

    /** Forgets everything (the term ended) and reports zero for every gauge this term reported. */
    synchronized void clear() {
        drains.clear();
        metrics.pendingDrains(ring, 0);
        unassigned.forEach((resource, waiting) -> {
            waiting.clear();
            metrics.unassigned(ring, resource, 0);
        });
    }
}

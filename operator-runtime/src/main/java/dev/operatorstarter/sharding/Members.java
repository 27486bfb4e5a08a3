package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * What the assigner knows of a ring's members: each member Lease as the ring's Lease informer last
 * delivered it, and the moment (on this process's monotonic clock) its record last changed, the
 * input of {@link MemberStates#judge}.
 *
 * <p>Only a change of the record (holder, acquire and renew times, transitions, duration) restarts a
 * member's clock; a new resourceVersion or other labels alone (the assigner's own {@code state}
 * label, someone's annotation) do not, so a member cannot look alive by what others write. The
 * moment is when the informer <em>delivered</em> the change, never the times in the record: a member's
 * term is timed from when its renewal was sent, which precedes the delivery, so the member's side of
 * the lease always runs out first (plan §2.7). A new assigner term uses new {@code Members}: every
 * clock then starts at its informer's first delivery, as a new candidate's does.
 *
 * <p>Members are keyed by the Lease's {@code sharding.operatorstarter.dev/shard} label, which stays when
 * the Lease is taken; a Lease without it is not a member's. Thread-safe.
 */
final class Members {

    /**
     * One member as last observed.
     *
     * @param shardId the member, from the Lease's shard label
     * @param lease the Lease as last delivered (the version a take or delete is conditional on)
     * @param record its record
     * @param changedAtNanos when the informer delivered the last change of {@code record}
     * @param takeFailed a take of this record failed for a reason other than a conflict
     */
    record Observation(String shardId, Lease lease, LeaderElectionRecord record, long changedAtNanos,
            boolean takeFailed) {

        Observation {
            Objects.requireNonNull(shardId, "shardId");
            Objects.requireNonNull(lease, "lease");
            Objects.requireNonNull(record, "record");
        }

        /** The version observed. */
        String resourceVersion() {
            return lease.getMetadata().getResourceVersion();
        }

        /** True when the member itself holds its Lease. */
        boolean heldByMember() {
            return record.holderIdentity().equals(shardId);
        }
    }

    private final Map<String, Observation> observed = new HashMap<>(); // guarded by this

    /** The member a Lease belongs to: its shard label, or null when it has none. */
    static @Nullable String shardOf(Lease lease) {
        Map<String, String> labels = lease.getMetadata().getLabels();
        String shardId = labels == null ? null : labels.get(ShardLabels.SHARD_LABEL);
        return shardId == null || shardId.isEmpty() ? null : shardId;
    }

    /**
     * The informer delivered {@code lease} (added, updated or replayed) at {@code nowNanos}.
     *
     * @return the member's observation now, or empty when the Lease names no member
     */
    synchronized Optional<Observation> observe(Lease lease, long nowNanos) {
        String shardId = shardOf(lease);
        if (shardId == null) {
            return Optional.empty();
        }
        LeaderElectionRecord record = LeaderElectionRecord.of(lease.getSpec());
        Observation before = observed.get(shardId);
        Observation now = before != null && before.record().equals(record)
                ? new Observation(shardId, lease, record, before.changedAtNanos(), before.takeFailed())
                : new Observation(shardId, lease, record, nowNanos, false);
        observed.put(shardId, now);
        return Optional.of(now);
    }

    /**
     * Feeds these members from a ring's Lease informer, observing each delivery on {@code time} when it
     * arrives, and runs {@code changed} after each (on the informer's handler thread; it must return quickly).
     */
    ResourceEventHandler<Lease> handler(TimeSource time, Runnable changed) {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(changed, "changed");
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(Lease lease, boolean isInInitialList) {
                observe(lease, time.nanoTime());
                changed.run();
            }

            @Override
            public void onUpdate(Lease oldLease, Lease newLease) {
                observe(newLease, time.nanoTime());
                changed.run();
            }

            @Override
            public void onDelete(Lease lease, boolean finalStateUnknown) {
                forget(lease);
                changed.run();
            }
        };
    }

    /** The informer delivered the deletion of {@code lease}: its member is named by no Lease any more. */
    synchronized void forget(Lease lease) {
        String shardId = shardOf(lease);
        if (shardId != null) {
            observed.remove(shardId);
        }
    }

    /**
     * A take of {@code shardId}'s Lease at {@code resourceVersion} failed for a reason other than a
     * conflict: the member is {@link MemberState#UNCERTAIN} until its record changes. Ignored when the
     * member was observed at another version since.
     */
    synchronized void takeFailed(String shardId, String resourceVersion) {
        Observation current = observed.get(shardId);
        if (current != null && current.resourceVersion().equals(resourceVersion)) {
            observed.put(shardId, new Observation(shardId, current.lease(), current.record(), current.changedAtNanos(),
                    true));
        }
    }

    /** Every member as last observed, by shard id. */
    synchronized SortedMap<String, Observation> observations() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(observed));
    }

    /** {@code shardId} as last observed; empty when no Lease names it. */
    synchronized Optional<Observation> get(String shardId) {
        return Optional.ofNullable(observed.get(shardId));
    }

    /** The state of {@code shardId} at {@code nowNanos}: {@link MemberState#DEAD} when no Lease names it. */
    synchronized MemberState stateOf(String shardId, long nowNanos, Duration orphanTtl) {
        Observation observation = observed.get(shardId);
        return observation == null ? MemberState.DEAD : MemberStates.judge(observation, nowNanos, orphanTtl);
    }

    /** Every observed member's state at {@code nowNanos}, by shard id. */
    synchronized SortedMap<String, MemberState> states(long nowNanos, Duration orphanTtl) {
        SortedMap<String, MemberState> states = new TreeMap<>();
        observed.forEach((shardId, observation) -> states.put(shardId, MemberStates.judge(observation, nowNanos,
                orphanTtl)));
        return Collections.unmodifiableSortedMap(states);
    }

    /** The {@link MemberState#READY} members at {@code nowNanos}, sorted: the ring's members. */
    synchronized Set<String> ready(long nowNanos) {
        Set<String> ready = new TreeSet<>();
        observed.forEach((shardId, observation) -> {
            // the orphan TTL plays no part in telling READY apart
            if (MemberStates.judge(observation, nowNanos, Duration.ZERO) == MemberState.READY) {
                ready.add(shardId);
            }
        });
        return Collections.unmodifiableSet(ready);
    }

    /**
     * The earliest moment after {@code nowNanos} at which some member's state changes by time alone (a
     * READY member expires, a DEAD one is orphaned); empty when none will. The assigner re-judges then.
     */
    synchronized OptionalLong nextChangeAt(long nowNanos, Duration orphanTtl) {
        OptionalLong next = OptionalLong.empty();
        for (Observation observation : observed.values()) {
            OptionalLong at = MemberStates.changesAt(observation, nowNanos, orphanTtl);
            if (at.isPresent() && (next.isEmpty() || at.getAsLong() - next.getAsLong() < 0)) {
                next = at;
            }
        }
        return next;
    }
}

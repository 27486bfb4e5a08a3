package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
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
 * <p>Only a change of the record (holder, acquire and renew times, transitions, duration) restarts
 * a member's clock; a new resourceVersion or other labels alone (the assigner's own {@code state}
 * label, someone's annotation) do not, so a member cannot look alive by what others write. The
 * moment is when the informer <em>delivered</em> the change, never the times in the record: a
 * member's term is timed from when its renewal was sent, which precedes the delivery, so the
 * member's side of the lease always runs out first ({@code docs/design/sharding.md}, "Decisions").
 * A new assigner term uses new {@code Members}: every clock then starts at its informer's first
 * delivery, as a new candidate's does.
 *
 * <p>A member's Lease is the one named {@link ShardLabels#leaseName <ring>-<shardId>} whose
 * {@code sharding.operatorstarter.dev/shard} label names the member (the label stays when the Lease is
 * taken); observations are kept by Lease name, and a Lease whose name and shard label do not agree
 * is nobody's (two Leases can never pose as one member).
 *
 * <p>A deleted Lease does not end its member's term: the member may have renewed it just before,
 * and its term lasts until its renew deadline. A member whose Lease was deleted while it held it
 * leaves a <em>tombstone</em>, judged {@link MemberState#EXPIRED} (live, out of the ring: its
 * objects wait) until the lease duration has passed since the deletion was delivered, then
 * {@link MemberState#DEAD}. A Lease deleted after it was released or taken (the assigner's own
 * orphan clean-up) leaves none. A member no Lease and no tombstone names (a token naming a shard
 * this term never saw) is judged {@link #unknownState}: EXPIRED until the lease duration has passed
 * since the Lease informer synced ({@link #synced}), then DEAD; so a Lease deleted just before this
 * assigner term began counts as a tombstone would. Thread-safe.
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

    /**
     * A member whose Lease was deleted while it held it.
     *
     * @param deletedAtNanos when the informer delivered the deletion
     * @param leaseDuration the lease duration of its last record
     */
    record Tombstone(String shardId, long deletedAtNanos, Duration leaseDuration) {

        /** EXPIRED for the lease duration after the deletion, DEAD afterwards. */
        MemberState stateAt(long nowNanos) {
            return nowNanos - deletedAtNanos < leaseDuration.toNanos() ? MemberState.EXPIRED : MemberState.DEAD;
        }
    }

    private final String ring;
    private final Duration leaseDuration;
    private final Map<String, Observation> observed = new HashMap<>(); // by Lease name; guarded by this
    private final Map<String, Tombstone> deleted = new HashMap<>(); // by shard id; guarded by this
    private @Nullable Long syncedAtNanos; // guarded by this

    /**
     * @param ring the ring whose Leases these are
     * @param leaseDuration the members' lease duration, for members this term never saw a Lease of
     */
    Members(String ring, Duration leaseDuration) {
        this.ring = Objects.requireNonNull(ring, "ring");
        this.leaseDuration = LeaderElectionRecord.asWritten(Objects.requireNonNull(leaseDuration, "leaseDuration"));
    }

    /** The member a Lease belongs to by its shard label, or null when it has none (for logs). */
    static @Nullable String shardOf(Lease lease) {
        Map<String, String> labels = lease.getMetadata().getLabels();
        String shardId = labels == null ? null : labels.get(ShardLabels.SHARD_LABEL);
        return shardId == null || shardId.isEmpty() ? null : shardId;
    }

    /** The member {@code lease} is the Lease of: its shard label, if the Lease's name is that member's; else null. */
    private @Nullable String memberOf(Lease lease) {
        String shardId = shardOf(lease);
        return shardId != null && ShardLabels.leaseName(ring, shardId).equals(lease.getMetadata().getName())
                ? shardId : null;
    }

    /**
     * The informer delivered {@code lease} (added, updated or replayed) at {@code nowNanos}.
     *
     * @return the member's observation now, or empty when the Lease is no member's (then a Lease of
     *     that name that was a member's counts as deleted)
     */
    synchronized Optional<Observation> observe(Lease lease, long nowNanos) {
        String shardId = memberOf(lease);
        if (shardId == null) {
            forget(lease, nowNanos);
            return Optional.empty();
        }
        String name = lease.getMetadata().getName();
        LeaderElectionRecord record = LeaderElectionRecord.of(lease.getSpec());
        Observation before = observed.get(name);
        Observation now = before != null && before.record().equals(record)
                ? new Observation(shardId, lease, record, before.changedAtNanos(), before.takeFailed())
                : new Observation(shardId, lease, record, nowNanos, false);
        observed.put(name, now);
        deleted.remove(shardId);
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
                forget(lease, time.nanoTime());
                changed.run();
            }
        };
    }

    /**
     * The informer delivered the deletion of {@code lease} at {@code nowNanos}: a member that held it
     * leaves a tombstone (its term may still run); one that had released it or lost it to a take
     * leaves nothing.
     */
    synchronized void forget(Lease lease, long nowNanos) {
        Observation last = observed.remove(lease.getMetadata().getName());
        if (last != null && last.heldByMember()) {
            deleted.put(last.shardId(), new Tombstone(last.shardId(), nowNanos,
                    last.record().leaseDuration().compareTo(leaseDuration) > 0 ? last.record().leaseDuration()
                            : leaseDuration));
        }
    }

    /**
     * The Lease informer synced at {@code nowNanos}, and the assigner judges from now on: from then,
     * a member it never saw counts as DEAD once a lease duration has passed. Only the first call counts.
     */
    synchronized void synced(long nowNanos) {
        if (syncedAtNanos == null) {
            syncedAtNanos = nowNanos;
        }
    }

    /**
     * The state of a member no Lease and no tombstone names, at {@code nowNanos}: EXPIRED (live, its
     * objects wait) before the Lease informer synced and for a lease duration after, DEAD afterwards.
     */
    synchronized MemberState unknownState(long nowNanos) {
        return syncedAtNanos != null && nowNanos - syncedAtNanos >= leaseDuration.toNanos() ? MemberState.DEAD
                : MemberState.EXPIRED;
    }

    /**
     * A take of {@code shardId}'s Lease at {@code resourceVersion} failed for a reason other than a
     * conflict: the member is {@link MemberState#UNCERTAIN} until its record changes. Ignored when the
     * member was observed at another version since.
     */
    synchronized void takeFailed(String shardId, String resourceVersion) {
        String name = ShardLabels.leaseName(ring, shardId);
        Observation current = observed.get(name);
        if (current != null && current.resourceVersion().equals(resourceVersion)) {
            observed.put(name, new Observation(shardId, current.lease(), current.record(), current.changedAtNanos(),
                    true));
        }
    }

    /** Every member whose Lease exists, as last observed, by shard id (tombstones are not among them). */
    synchronized SortedMap<String, Observation> observations() {
        SortedMap<String, Observation> byShard = new TreeMap<>();
        observed.values().forEach(observation -> byShard.put(observation.shardId(), observation));
        return Collections.unmodifiableSortedMap(byShard);
    }

    /** {@code shardId}'s Lease as last observed; empty when it has none. */
    synchronized Optional<Observation> get(String shardId) {
        return Optional.ofNullable(observed.get(ShardLabels.leaseName(ring, shardId)));
    }

    /** The state of {@code shardId} at {@code nowNanos}: of its Lease, its tombstone, or {@link #unknownState}. */
    synchronized MemberState stateOf(String shardId, long nowNanos, Duration orphanTtl) {
        Observation observation = observed.get(ShardLabels.leaseName(ring, shardId));
        if (observation != null) {
            return MemberStates.judge(observation, nowNanos, orphanTtl);
        }
        Tombstone tombstone = deleted.get(shardId);
        return tombstone != null ? tombstone.stateAt(nowNanos) : unknownState(nowNanos);
    }

    /**
     * Every member with a Lease or a tombstone, and its state at {@code nowNanos}, by shard id. A
     * tombstone is dropped once it is DEAD and members without one count as DEAD too.
     */
    synchronized SortedMap<String, MemberState> states(long nowNanos, Duration orphanTtl) {
        deleted.values().removeIf(tombstone -> tombstone.stateAt(nowNanos) == MemberState.DEAD
                && unknownState(nowNanos) == MemberState.DEAD);
        SortedMap<String, MemberState> states = new TreeMap<>();
        deleted.forEach((shardId, tombstone) -> states.put(shardId, tombstone.stateAt(nowNanos)));
        observed.values().forEach(observation -> states.put(observation.shardId(),
                MemberStates.judge(observation, nowNanos, orphanTtl)));
        return Collections.unmodifiableSortedMap(states);
    }

    /** The {@link MemberState#READY} members at {@code nowNanos}, sorted: the ring's members. */
    synchronized Set<String> ready(long nowNanos) {
        Set<String> ready = new TreeSet<>();
        observed.values().forEach(observation -> {
            // the orphan TTL plays no part in telling READY apart
            if (MemberStates.judge(observation, nowNanos, Duration.ZERO) == MemberState.READY) {
                ready.add(observation.shardId());
            }
        });
        return Collections.unmodifiableSet(ready);
    }

    /**
     * The earliest moment after {@code nowNanos} at which some member's state changes by time alone (a
     * READY member expires, a DEAD one is orphaned, a tombstone's member or an unknown one becomes
     * DEAD); empty when none will. The assigner re-judges then.
     */
    synchronized OptionalLong nextChangeAt(long nowNanos, Duration orphanTtl) {
        List<OptionalLong> changes = new ArrayList<>();
        observed.values().forEach(observation -> changes.add(MemberStates.changesAt(observation, nowNanos, orphanTtl)));
        deleted.values().forEach(tombstone -> changes.add(future(tombstone.deletedAtNanos()
                + tombstone.leaseDuration().toNanos(), nowNanos)));
        if (syncedAtNanos != null) {
            changes.add(future(syncedAtNanos + leaseDuration.toNanos(), nowNanos));
        }
        OptionalLong next = OptionalLong.empty();
        for (OptionalLong at : changes) {
            if (at.isPresent() && (next.isEmpty() || at.getAsLong() - next.getAsLong() < 0)) {
                next = at;
            }
        }
        return next;
    }

    private static OptionalLong future(long atNanos, long nowNanos) {
        return atNanos - nowNanos > 0 ? OptionalLong.of(atNanos) : OptionalLong.empty();
    }
}

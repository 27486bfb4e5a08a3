package dev.operatorstarter.sharding;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A replica's view of its ring, for health details and status endpoints ({@link Sharding#status()}):
 * its own membership, and the members as it sees them. The replica that leads (and so assigns)
 * sees the most: the members as its assigner judges them with the objects each holds, the drains
 * it waits for and the objects that wait for a member. Any other replica judges the members from
 * its own watch of their Leases, on its own clock, and knows no counts (those fields are null).
 *
 * <p>A snapshot built from local state: making one never calls the API server.
 *
 * @param ring the ring's name
 * @param shardId this replica's member id
 * @param lease this replica's member Lease, {@code namespace/name}
 * @param phase where this replica's membership stands
 * @param assigner whether this replica assigns: it is in a term of the operator's leader election
 *        (early in a term the members and counts fill in as the assigner's caches sync)
 * @param members every member whose Lease this replica sees, sorted by shard id
 * @param pendingDrains objects whose drain is requested and not yet acknowledged; null unless {@code assigner}
 * @param unassigned primary objects without a token that wait for a member; null unless {@code assigner}
 * @param oldestPendingDrain how long the oldest pending drain has waited; null when none does or
 *        unless {@code assigner}
 */
public record RingStatus(String ring, String shardId, String lease, Membership.Phase phase, boolean assigner,
        List<MemberStatus> members, @Nullable Integer pendingDrains, @Nullable Integer unassigned,
        @Nullable Duration oldestPendingDrain) {

    public RingStatus {
        Objects.requireNonNull(ring, "ring");
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(phase, "phase");
        members = List.copyOf(members);
    }

    /**
     * One member as this replica judges it.
     *
     * @param shardId the member
     * @param lease its Lease, {@code namespace/name}
     * @param state its state, judged on this replica's clock from when it saw the Lease's record change
     * @param holder its Lease's holder ({@code ""} when released, {@code assigner:<id>} when taken)
     * @param sinceChange how long ago this replica saw its Lease's record change
     * @param objects primary objects whose token names it, as the assigner's caches hold them; null
     *        on a replica that does not assign
     */
    public record MemberStatus(String shardId, String lease, MemberState state, String holder, Duration sinceChange,
            @Nullable Integer objects) {

        /** {@code observed}, judged at {@code nowNanos}. */
        static MemberStatus of(Members.Observation observed, long nowNanos, Duration orphanTtl,
                @Nullable Integer objects) {
            return new MemberStatus(observed.shardId(), observed.lease().getMetadata().getNamespace() + "/"
                    + observed.lease().getMetadata().getName(), MemberStates.judge(observed, nowNanos, orphanTtl),
                    observed.record().holderIdentity(), Duration.ofNanos(nowNanos - observed.changedAtNanos()),
                    objects);
        }
    }
}

package dev.operatorstarter.sharding;

import java.time.Duration;
import java.util.Map;

/**
 * Receives what a ring's replicas do, for the {@code controller_sharding_*} metrics (plan §4.3): on
 * every replica, whether its member term is valid and the drains its shard acknowledged; on the
 * replica that assigns, how many members are in each state, what it assigned, moved and asked to
 * drain, how long handovers took, and what waits. Label values are bounded: the ring and a
 * resource's {@code plural[.group]}, never a shard id or an object's name.
 *
 * <p>Gauges are pushed: each call gives the current value, which holds until the next call. An
 * assigner whose leader term ends reports zero for its gauges, so on the other replicas (which do
 * not assign) they read zero.
 *
 * <p>Called from the sharding's threads (the assigner's, the member elector's, the shard controllers'
 * workers): implementations must be thread-safe, fast, and must not throw.
 */
public interface ShardingMetrics {

    /** Records nothing. */
    ShardingMetrics NONE = new ShardingMetrics() {
    };

    /**
     * {@code controller_sharding_member_status{ring}}: this replica's member term started ({@code true})
     * or ended ({@code false}); 1 while it lasts, as {@code leader_election_master_status}.
     */
    default void member(String ring, boolean inTerm) {
    }

    /**
     * {@code controller_sharding_drain_acks_total{ring,resource}}: this replica's shard let an object of
     * {@code resource} go, acknowledging its drain.
     */
    default void drainAcknowledged(String ring, String resource) {
    }

    /** {@code controller_sharding_members{ring,state}}: how many members are in each state (every state given, 0 included). */
    default void members(String ring, Map<MemberState, Integer> byState) {
    }

    /**
     * {@code controller_sharding_assignments_total{ring,resource}}: a tokenless object was given a
     * shard, or a child was labelled with its owner's shard.
     */
    default void assigned(String ring, String resource) {
    }

    /**
     * {@code controller_sharding_movements_total{ring,resource}}: an object (or a child with it) was
     * forced off a shard that is gone.
     */
    default void moved(String ring, String resource) {
    }

    /** {@code controller_sharding_drains_total{ring,resource}}: an object's shard was asked to let it go. */
    default void drainRequested(String ring, String resource) {
    }

    /**
     * {@code controller_sharding_handover_duration_seconds{ring}}: from this assigner's drain request
     * to the new token (a drain requested by an earlier leader is not observed).
     */
    default void handedOver(String ring, Duration duration) {
    }

    /** {@code controller_sharding_pending_drains{ring}}: objects whose drain is requested and not yet acknowledged. */
    default void pendingDrains(String ring, int objects) {
    }

    /**
     * {@code controller_sharding_unassigned_objects{ring,resource}}: primary objects without a token
     * that wait for a member to join the ring.
     */
    default void unassigned(String ring, String resource, int objects) {
    }
}

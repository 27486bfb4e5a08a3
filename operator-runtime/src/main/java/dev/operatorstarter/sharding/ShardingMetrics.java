package dev.operatorstarter.sharding;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Receives what a ring's replicas do, for the {@code controller_sharding_*} metrics: on every
 * replica, whether its member term is valid, the drains its shard acknowledged and how many objects
 * each sharded controller's primary cache holds; on the replica that assigns, how many members are
 * in each state, what it assigned, moved and asked to drain, how long handovers took, and what
 * waits. Label values are bounded: the ring, a resource's {@code plural[.group]} and a controller's
 * name, never a shard id or an object's name.
 *
 * <p>Gauges are pushed: each call gives the current value, which holds until the next call. An
 * assigner whose leader term ends reports zero for its gauges, so on the other replicas (which do
 * not assign) they read zero. One is pulled: {@link #shardObjects} gives a supplier read when the
 * gauge is read.
 *
 * <p>Called from the sharding's threads (the assigner's, the member elector's, the shard controllers'
 * workers): implementations must be thread-safe, fast, and must not throw.
 */
public interface ShardingMetrics {

    /** Records nothing. */
    ShardingMetrics NONE = new ShardingMetrics() {
    };

    /**
     * {@link ShardingMetrics} on Micrometer with the Prometheus names given on each method
     * ({@code controller_sharding_*}); the handover duration is a histogram with buckets from 25 ms
     * to 5 minutes. Needs {@code micrometer-core} on the class path (an optional dependency of the
     * runtime) only when called: the rest of this interface works without it.
     */
    static ShardingMetrics micrometer(MeterRegistry registry) {
        return new MicrometerShardingMetrics(registry);
    }

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

    /**
     * {@code controller_sharding_objects{ring,controller}}: how many objects the primary cache of
     * this replica's sharded controller {@code controller} holds, its share of the ring. Called once
     * per sharded controller when it is added ({@code Manager.addSharded}, through
     * {@link Sharding#adopt}); {@code objects} is read whenever the gauge is, must be fast
     * and thread-safe, and is held for as long as the sink is. A second call for the same ring and
     * controller replaces the supplier.
     */
    default void shardObjects(String ring, String controller, IntSupplier objects) {
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

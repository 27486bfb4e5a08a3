package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.sharding.RingStatus;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A read-only view of the running operator (informers, leadership, controllers, sharding) for health
 * indicators and the {@code operator} actuator endpoint. Every read is cheap and never calls the
 * API server.
 */
public final class OperatorStatus {

    /** One informer's state. */
    public record InformerStatus(String name, boolean synced, boolean watching, int cached,
            String resourceVersion, @Nullable String lastError) {
    }

    /**
     * Leader election's state.
     *
     * @param enabled whether replicas elect a leader
     * @param identity this replica's identity in the Lease
     * @param lease the Lease as namespace/name
     * @param leader whether this replica leads now
     * @param holder the holder the Lease showed last ("" when released or not read yet)
     */
    public record LeadershipStatus(boolean enabled, String identity, String lease, boolean leader, String holder) {
    }

    /**
     * Sharding's state: this replica's membership of the ring and the members as it sees them
     * (from the runtime's {@link RingStatus}). The replica that assigns (the leader) adds the objects
     * per member, the drains it waits for and the objects no member has yet; the others leave them null.
     *
     * @param enabled whether the controllers are sharded; every other field is empty or null when not
     * @param ring the ring's name
     * @param shard this replica's member id
     * @param lease its member Lease as namespace/name
     * @param phase its membership's phase: {@code JOINING}, {@code MEMBER}, {@code LOST}, {@code TAINTED} or {@code LEFT}
     * @param assigner whether this replica assigns the objects (it leads)
     * @param controllers the sharded controllers
     * @param members the members it sees, sorted by shard id
     * @param pendingDrains objects asked to move and not yet let go by their shard
     * @param oldestPendingDrainSeconds how long the oldest of them has waited
     * @param unassigned objects that wait for a member to join
     */
    public record ShardingStatus(boolean enabled, String ring, String shard, String lease, String phase,
            boolean assigner, List<String> controllers, List<MemberStatus> members, @Nullable Integer pendingDrains,
            @Nullable Double oldestPendingDrainSeconds, @Nullable Integer unassigned) {

        static final ShardingStatus DISABLED = new ShardingStatus(false, "", "", "", "", false, List.of(), List.of(),
                null, null, null);

        static ShardingStatus of(RingStatus ring, List<String> controllers) {
            return new ShardingStatus(true, ring.ring(), ring.shardId(), ring.lease(), ring.phase().name(),
                    ring.assigner(), controllers, ring.members().stream().map(MemberStatus::of).toList(),
                    ring.pendingDrains(), seconds(ring.oldestPendingDrain()), ring.unassigned());
        }
    }

    /**
     * One member of the ring as this replica judges it.
     *
     * @param shard its member id
     * @param lease its Lease as namespace/name
     * @param state {@code READY} (in the ring), {@code EXPIRED} or {@code UNCERTAIN} (out of the ring,
     *     may still be reconciling), {@code DEAD} (its objects move), {@code ORPHANED} (its Lease is deleted)
     * @param holder its Lease's holder ("" when released, {@code assigner:<id>} when taken)
     * @param sinceChangeSeconds how long ago this replica saw its Lease change
     * @param objects the primary objects assigned to it; null unless this replica assigns
     */
    public record MemberStatus(String shard, String lease, String state, String holder, double sinceChangeSeconds,
            @Nullable Integer objects) {

        static MemberStatus of(RingStatus.MemberStatus member) {
            return new MemberStatus(member.shardId(), member.lease(), member.state().name(), member.holder(),
                    seconds(member.sinceChange()), member.objects());
        }
    }

    private static @Nullable Double seconds(@Nullable Duration duration) {
        return duration == null ? null : duration.toNanos() / 1e9;
    }

    /**
     * Everything at once.
     *
     * @param waitingFor what start-up waits for the API server to serve ({@link #waitingFor()}); empty when nothing
     * @param sharding the ring this replica is a member of ({@link ShardingStatus#enabled()} false without sharding)
     */
    public record Snapshot(List<ControllerStatus> controllers, LeadershipStatus leaderElection,
            List<InformerStatus> informers, List<String> waitingFor, ShardingStatus sharding) {
    }

    private final SharedInformerFactory informers;
    private final Manager manager;
    private final @Nullable LeaderElector elector;
    private final @Nullable Sharding sharding;
    private final String identity;
    private final String lease;

    /**
     * @param manager the operator's manager
     * @param sharding the sharding installed in it; null without
     * @param identity this replica's identity in the Lease ("" without election)
     * @param lease the Lease as namespace/name ("" without election)
     */
    public OperatorStatus(Manager manager, @Nullable Sharding sharding, String identity, String lease) {
        this.informers = manager.informers();
        this.manager = manager;
        this.sharding = sharding;
        this.elector = manager.leaderElector().orElse(null);
        this.identity = identity;
        this.lease = lease;
    }

    public List<InformerStatus> informers() {
        return informers.informers().stream().map(OperatorStatus::informer).toList();
    }

    private static InformerStatus informer(SharedIndexInformer<?> informer) {
        return new InformerStatus(informer.name(), informer.hasSynced(), informer.isWatching(),
                informer.indexer().size(), informer.lastSyncResourceVersion(),
                informer.lastError().map(Throwable::getMessage).orElse(null));
    }

    /**
     * What start-up waits for with {@code operator.informers.on-missing-crd=wait}: for each
     * resource the API server did not serve when last asked, a sentence naming it (for a custom
     * resource, its CRD). Empty when everything is served, or was never checked.
     */
    public List<String> waitingFor() {
        String server = new RedactedUri(manager.client().config().server()).toString();
        return manager.missingResources().stream().map(missing -> missing.describe(server)).toList();
    }

    public LeadershipStatus leaderElection() {
        return elector == null ? new LeadershipStatus(false, identity, "", manager.isActive(), "")
                : new LeadershipStatus(true, identity, lease, elector.isLeader(), elector.leader());
    }

    public List<ControllerStatus> controllers() {
        return manager.controllers();
    }

    /** True while this replica's (leader-gated) controllers should run: it leads, or there is no election. */
    public boolean controllersActive() {
        return manager.isActive();
    }

    /** True while this replica's sharded controllers should run: it is in a term of its member Lease. */
    public boolean shardActive() {
        return manager.isActive(RunnableGroup.MEMBER_TERM);
    }

    /** The ring this replica is a member of; {@link ShardingStatus#enabled()} false without sharding. */
    public ShardingStatus sharding() {
        return sharding == null ? ShardingStatus.DISABLED : ShardingStatus.of(sharding.status(), manager.controllers()
                .stream().filter(ControllerStatus::sharded).map(ControllerStatus::name).toList());
    }

    public Snapshot snapshot() {
        return new Snapshot(controllers(), leaderElection(), informers(), waitingFor(), sharding());
    }
}

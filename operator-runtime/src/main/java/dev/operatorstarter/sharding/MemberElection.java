package dev.operatorstarter.sharding;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.leaderelection.ResourceLock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One replica's campaign for its own member Lease: the unchanged {@link LeaderElector} over a
 * {@link MemberLock}, so terms, renewals, the renew deadline and the watchdog are leader
 * election's, and the {@link Membership} that results. The shard's controllers are the elector's
 * callbacks: they run for each term.
 *
 * <p>On top of the elector: a taint ({@link MemberLock}) moves the member to
 * {@link Membership.Phase#TAINTED}, ends the term if one runs, stops the campaign without a release
 * (the Lease is not the member's any more) and runs {@code onTainted} once. {@link #close()} stops
 * and releases the Lease (for a member whose controllers all stopped: release means "nothing of this
 * shard runs any more"); {@link #abandon()} stops and leaves the Lease to expire (controllers that did
 * not stop in time).
 *
 * <p>Lifecycle: built idle, {@link #start()} campaigns on the elector's threads. Thread-safe.
 */
final class MemberElection implements Membership, AutoCloseable {

    private final String shardId;
    private final String lease;
    private final Campaign campaign;
    private final LeaderElector elector;

    private MemberElection(String shardId, String lease, Campaign campaign, LeaderElector elector) {
        this.shardId = shardId;
        this.lease = lease;
        this.campaign = campaign;
        this.elector = elector;
    }

    /**
     * A member's campaign, not started.
     *
     * @param lease the member's Lease, without the taint rule ({@link MemberLock#leaseOf} for the real
     *     one); its identity is the shard id
     * @param leaseName the Lease as {@code <namespace>/<name>}, for {@link #lease()}
     * @param callbacks the shard's controllers, run for each term
     * @param onTainted runs once when the member is tainted, on the elector's thread; must return quickly
     * @param config completes the elector's configuration (durations, time source, threads, name);
     *     validated as any {@link LeaderElectionConfig}
     */
    static MemberElection create(ResourceLock lease, String leaseName, LeaderCallbacks callbacks, Runnable onTainted,
            UnaryOperator<LeaderElectionConfig.Builder> config) {
        Campaign campaign = new Campaign(callbacks, onTainted);
        MemberLock lock = new MemberLock(lease, campaign::taint);
        LeaderElector elector = new LeaderElector(config.apply(LeaderElectionConfig.builder(lock, campaign)).build());
        campaign.elector = elector;
        return new MemberElection(lock.identity(), leaseName, campaign, elector);
    }

    /** Starts campaigning. */
    void start() {
        elector.start();
    }

    /** Stops campaigning; a member in a term ends it, then releases its Lease. */
    @Override
    public void close() {
        elector.close();
        campaign.move(Phase.LEFT);
    }

    /** Stops campaigning; a member in a term ends it and leaves its Lease to expire. */
    void abandon() {
        elector.abandon();
        campaign.move(Phase.LEFT);
    }

    @Override
    public String shardId() {
        return shardId;
    }

    @Override
    public String lease() {
        return lease;
    }

    @Override
    public Phase phase() {
        return campaign.phase.get();
    }

    @Override
    public Optional<Leadership> term() {
        return Optional.ofNullable(campaign.term);
    }

    @Override
    public String toString() {
        return "member " + shardId() + " (" + phase() + ") on " + lease;
    }

    /**
     * The phase after {@code current} when {@code next} happens: {@link Phase#TAINTED} is final, and
     * {@link Phase#LEFT} gives way only to a taint (a release at close that finds the Lease taken).
     */
    static Phase after(Phase current, Phase next) {
        if (current == Phase.TAINTED || current == Phase.LEFT && next != Phase.TAINTED) {
            return current;
        }
        return next;
    }

    /**
     * The elector's callbacks around the shard's, and the taint hook: the phase and the term.
     *
     * <p>The elector calls {@link #onStartedLeading} on a thread of its own, which may run late:
     * after the term ended (its renew deadline passed, or {@link #onStoppedLeading} ran already).
     * A term that is no longer valid then starts nothing and moves the phase nowhere; the shard's
     * callbacks are started and stopped in pairs, under this object's lock.
     */
    static final class Campaign implements LeaderCallbacks {
        private final LeaderCallbacks callbacks;
        private final Runnable onTainted;
        final AtomicReference<Phase> phase = new AtomicReference<>(Phase.JOINING);
        /** What {@link MemberElection#term()} shows: the term while {@link Phase#MEMBER}. */
        volatile @Nullable Leadership term;
        /** The term the shard's callbacks were started for and not yet stopped. Guarded by this. */
        private @Nullable Leadership started;
        /** Set once, right after the elector is built and before it starts. */
        volatile @Nullable LeaderElector elector;

        Campaign(LeaderCallbacks callbacks, Runnable onTainted) {
            this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
            this.onTainted = Objects.requireNonNull(onTainted, "onTainted");
        }

        private LeaderElector elector() {
            return Objects.requireNonNull(elector, "elector");
        }

        Phase move(Phase next) {
            return phase.updateAndGet(current -> after(current, next));
        }

        @Override
        public synchronized void onStartedLeading(Leadership leadership) {
            if (!leadership.isValid() || after(phase.get(), Phase.MEMBER) != Phase.MEMBER) {
                return; // ended before this thread ran, or tainted or left meanwhile: nothing starts
            }
            move(Phase.MEMBER);
            term = leadership;
            started = leadership;
            callbacks.onStartedLeading(leadership);
        }

        @Override
        public synchronized void onStoppedLeading() {
            Leadership ending = started;
            if (ending != null && ending.isValid()) {
                return; // not the term that ends (the elector ends a term before it calls this)
            }
            started = null;
            term = null;
            move(Phase.LOST);
            if (ending != null) {
                callbacks.onStoppedLeading();
            }
        }

        @Override
        public void onNewLeader(String identity) {
            callbacks.onNewLeader(identity);
        }

        /** The member lock's taint hook, on the elector's thread (a failing {@code onTainted} is the lock's to log). */
        void taint() {
            move(Phase.TAINTED);
            term = null;
            elector().abandon(); // from its own thread: ends its loop; the term ends as it applies the read
            onTainted.run();
        }
    }
}

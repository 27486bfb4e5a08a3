package dev.operatorstarter.sharding;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.leaderelection.ResourceLock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ring member's lock on its own Lease: the Lease's {@link ResourceLock} (a {@link LeaseLock} with
 * the ring's labels, {@link #leaseOf}) with one rule on top, the <em>taint</em>.
 *
 * <p>The member remembers the {@code leaseTransitions} of the record of its last successful write.
 * From its first successful write on, a read that shows
 * <ul>
 *   <li>no Lease (deleted),</li>
 *   <li>another holder, or none ({@code ""}: released, but not by this member), or</li>
 *   <li>this member as holder with other {@code leaseTransitions} (taken and given back)</li>
 * </ul>
 * taints the member for good: {@code onTainted} runs once, on the reading thread, and every later
 * {@link #create} and {@link #update} throws {@link ShardingException.MemberTaken} without reaching
 * the API server. The reason: the assigner moves a member's objects away without the member's
 * acknowledgement only after it took the member's Lease, and a take changes holder and transitions.
 * A read that shows the member's own record with the same transitions is <em>untouched</em>: a term
 * lost to an unreachable API server or a short pause is renewed, as a leader's would be.
 *
 * <p>Before its first successful write the member judges nothing (a Lease of the same name left by
 * an earlier process is the elector's to wait for or take); after its own release (holder {@code ""}
 * written by it) nothing either. Thread-safe.
 */
final class MemberLock implements ResourceLock {

    private static final Logger log = LoggerFactory.getLogger(MemberLock.class);

    private final ResourceLock lease;
    private final Runnable onTainted;
    /** The transitions of the record of its last successful write; null before the first. Guarded by this. */
    private @Nullable Integer heldTransitions;
    /** Its last successful write was its own release. Guarded by this. */
    private boolean released;
    /** Why the member is tainted; null while it is not. Guarded by this. */
    private @Nullable String taint;

    /**
     * @param lease the member's Lease; its identity is the shard id
     * @param onTainted runs once when the member is tainted, on the thread that read; must return quickly
     */
    MemberLock(ResourceLock lease, Runnable onTainted) {
        this.lease = Objects.requireNonNull(lease, "lease");
        this.onTainted = Objects.requireNonNull(onTainted, "onTainted");
    }

    /**
     * The member Lease {@code <ring>-<shardId>} in {@code namespace} as a plain lock, to wrap in a
     * {@code MemberLock}: held as {@code <shardId>}, labelled {@code sharding.operatorstarter.dev/ring=<ring>}
     * and {@code sharding.operatorstarter.dev/shard=<shardId>} (the shard label stays when the Lease is
     * taken, so a taken Lease still names its member).
     */
    static LeaseLock leaseOf(KubernetesClient client, String namespace, ShardLabels labels) {
        return LeaseLock.of(client, namespace, ShardLabels.leaseName(labels.ring(), labels.shardId()), labels.shardId())
                .withLabels(Map.of(ShardLabels.RING_LABEL, labels.ring(), ShardLabels.SHARD_LABEL, labels.shardId()));
    }

    @Override
    public Optional<Observed> get(Duration deadline) {
        Optional<Observed> seen = lease.get(deadline);
        String why;
        synchronized (this) {
            if (taint != null || heldTransitions == null || released) {
                return seen;
            }
            why = taintIn(seen, heldTransitions);
            if (why == null) {
                return seen;
            }
            taint = why;
        }
        log.error("{}: member {} is tainted: {}; it never writes its lease or runs again", lease.describe(),
                identity(), why);
        try {
            onTainted.run();
        } catch (RuntimeException e) {
            log.error("{}: the member's onTainted hook failed", lease.describe(), e);
        }
        return seen;
    }

    /** Why {@code seen} taints a member that last wrote a record with {@code held} transitions; null if it does not. */
    private @Nullable String taintIn(Optional<Observed> seen, int held) {
        if (seen.isEmpty()) {
            return "its lease was deleted";
        }
        LeaderElectionRecord record = seen.get().record();
        if (record.isReleased()) {
            return "its lease was released by someone else";
        }
        if (!record.holderIdentity().equals(identity())) {
            return "its lease is held by " + record.holderIdentity();
        }
        if (record.leaderTransitions() != held) {
            return "its lease changed hands and came back (leaseTransitions " + held + " when it last wrote, "
                    + record.leaderTransitions() + " now)";
        }
        return null;
    }

    @Override
    public void create(LeaderElectionRecord record, Duration deadline) {
        refuseIfTainted();
        lease.create(record, deadline);
        wrote(record);
    }

    @Override
    public void update(LeaderElectionRecord record, String version, Duration deadline) {
        refuseIfTainted();
        lease.update(record, version, deadline);
        wrote(record);
    }

    private synchronized void refuseIfTainted() {
        if (taint != null) {
            throw new ShardingException.MemberTaken(identity(), lease.describe() + ": member " + identity()
                    + " is tainted (" + taint + ") and never writes its lease again");
        }
    }

    private synchronized void wrote(LeaderElectionRecord record) {
        heldTransitions = record.leaderTransitions();
        released = record.isReleased();
    }

    @Override
    public String identity() {
        return lease.identity();
    }

    @Override
    public String describe() {
        return lease.describe();
    }

    @Override
    public String toString() {
        return "member " + identity() + " on " + describe();
    }
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.leaderelection.ResourceLock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ring member's lock on its own Lease: the Lease's {@link ResourceLock} (a {@link LeaseLock} with
 * the ring's labels, {@link #leaseOf}) with two rules on top: the <em>taint</em>, and that a record
 * naming this member is the member's only if this process wrote it.
 *
 * <p>The member remembers the record of its last successful write, and the records it tried to
 * write since (a write whose answer was lost may still have landed: a later read showing it adopts
 * it as written). From its first successful write on, a read that shows
 * <ul>
 *   <li>no Lease (deleted),</li>
 *   <li>another holder, or none ({@code ""}: released, but not by this member),</li>
 *   <li>this member as holder with other {@code leaseTransitions} (taken and given back), or</li>
 *   <li>this member as holder with acquire or renew times this process never sent (another
 *       process with the same shard id)</li>
 * </ul>
 * taints the member for good: {@code onTainted} runs once, on the reading thread, and every later
 * {@link #create} and {@link #update} throws {@link ShardingException.MemberTaken} without reaching
 * the API server. The reason: the assigner moves a member's objects away without the member's
 * acknowledgement only after it took the member's Lease, and a take changes holder and transitions.
 * A read that shows the member's own record with the same transitions is <em>untouched</em>: a term
 * lost to an unreachable API server or a short pause is renewed, as a leader's would be.
 *
 * <p>Before its first successful write, a Lease that names this member as holder but holds a record
 * this process did not write (left by an earlier process with the same shard id, or another process
 * using it now) is read as held by someone else: its holder reads as
 * {@code <shardId> (not this process)}. The elector then waits, as for any other holder, until the
 * record has stayed unchanged for its lease duration, and takes it with one more transition (which
 * taints the other process, should it still be alive); while the other process renews, this one
 * never becomes a member. Before its first write the member takes nothing else for a taint (another
 * holder or a released Lease are the elector's to wait for or take); after its own release (holder
 * {@code ""} written by it) nothing either. Thread-safe.
 */
final class MemberLock implements ResourceLock {

    private static final Logger log = LoggerFactory.getLogger(MemberLock.class);
    /** What a holder naming this member reads as when this process did not write the record. */
    static final String NOT_THIS_PROCESS = " (not this process)";
    /** How many unanswered writes are remembered (the elector makes one at a time, and retries). */
    private static final int ATTEMPTS_KEPT = 8;

    private final ResourceLock lease;
    private final Runnable onTainted;
    /** The record of its last successful write; null before the first. Guarded by this. */
    private @Nullable LeaderElectionRecord written;
    /** Records it tried to write since {@link #written}, the newest last; a lost answer may hide a success. Guarded by this. */
    private final Deque<LeaderElectionRecord> attempted = new ArrayDeque<>();
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
            if (taint != null || released) {
                return seen;
            }
            if (seen.isPresent() && seen.get().record().holderIdentity().equals(identity())) {
                LeaderElectionRecord mine = seen.get().record();
                if (isOwn(mine)) {
                    if (written == null || !sameWrite(written, mine)) {
                        wrote(mine); // a write whose answer was lost landed after all
                    }
                } else if (written == null) {
                    return Optional.of(notThisProcess(seen.get()));
                }
            }
            if (written == null) {
                return seen;
            }
            why = taintIn(seen, written.leaderTransitions());
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
        if (!isOwn(record)) {
            return "its lease shows a renewal this process never sent (acquired " + record.acquireTime()
                    + ", renewed " + record.renewTime() + "): another process uses shard id " + identity();
        }
        return null;
    }

    /** Whether this process wrote {@code record}: its last successful write, or one whose answer it did not get. */
    private boolean isOwn(LeaderElectionRecord record) {
        if (written != null && sameWrite(written, record)) {
            return true;
        }
        return attempted.stream().anyMatch(attempt -> sameWrite(attempt, record));
    }

    /** The same write: holder, transitions, and acquire and renew times to the microsecond (as a Lease keeps them). */
    private static boolean sameWrite(LeaderElectionRecord a, LeaderElectionRecord b) {
        return a.holderIdentity().equals(b.holderIdentity()) && a.leaderTransitions() == b.leaderTransitions()
                && Objects.equals(micros(a.acquireTime()), micros(b.acquireTime()))
                && Objects.equals(micros(a.renewTime()), micros(b.renewTime()));
    }

    private static @Nullable Instant micros(@Nullable Instant instant) {
        return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code seen}, its holder (this member's id) read as someone else's. */
    private Observed notThisProcess(Observed seen) {
        LeaderElectionRecord record = seen.record();
        return new Observed(new LeaderElectionRecord(identity() + NOT_THIS_PROCESS, record.leaseDuration(),
                record.acquireTime(), record.renewTime(), record.leaderTransitions()), seen.version());
    }

    @Override
    public void create(LeaderElectionRecord record, Duration deadline) {
        attempt(record);
        lease.create(record, deadline);
        wrote(record);
    }

    @Override
    public void update(LeaderElectionRecord record, String version, Duration deadline) {
        attempt(record);
        lease.update(record, version, deadline);
        wrote(record);
    }

    /** Refuses a tainted member's write; remembers any other, before it is sent. */
    private synchronized void attempt(LeaderElectionRecord record) {
        if (taint != null) {
            throw new ShardingException.MemberTaken(identity(), lease.describe() + ": member " + identity()
                    + " is tainted (" + taint + ") and never writes its lease again");
        }
        if (attempted.size() == ATTEMPTS_KEPT) {
            attempted.removeFirst();
        }
        attempted.addLast(record);
    }

    /** {@code record} is the Lease's now, by this process's write. */
    private synchronized void wrote(LeaderElectionRecord record) {
        written = record;
        attempted.clear(); // none of them can land any more: each was conditional on a version now gone
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

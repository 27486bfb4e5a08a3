package dev.operatorstarter.sharding;

import dev.operatorstarter.leaderelection.Leadership;
import java.util.Optional;

/**
 * This replica's membership in a ring: the terms of its own member Lease
 * ({@code <ring>-<shardId>}), which it campaigns for as a leader election of one candidate. Its
 * sharded controllers run only during a valid term, so that nothing of this shard runs once the
 * assigner may have declared it dead.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>A term starts only after this member's write to its Lease succeeded, and is valid as a
 *       leader's term is ({@link Leadership#isValid()}): until the renew deadline after its last
 *       successful renewal, judged on this process's monotonic clock.</li>
 *   <li>A term that was lost while nobody touched the Lease (the API server was unreachable past
 *       the renew deadline, a short pause) is followed by a new term once a renewal succeeds again:
 *       phase {@link Phase#LOST}, then {@link Phase#MEMBER}.</li>
 *   <li>Once the member has held its Lease, a read showing the Lease deleted, held or released by
 *       anyone else, with a changed {@code leaseTransitions} (taken and given back), or with a
 *       renewal this process never sent (another process with the same shard id) makes the
 *       member {@link Phase#TAINTED} for good: it stops campaigning, never writes the Lease again
 *       and never starts another term. The assigner takes a member's Lease before it moves that
 *       member's objects away, so a tainted member may have lost them: only a restart (a new
 *       process, with a new shard id) joins the ring again.</li>
 *   <li>A Lease naming this member's shard id that this process did not write (an earlier or
 *       another process with the same id) is treated as another holder's: the member joins only
 *       once it stayed unrenewed for its lease duration, and takes it with one more transition.</li>
 * </ul>
 *
 * <p>Threading: thread-safe; every method is cheap and local (no call to the API server).
 */
public interface Membership {

    /** Where this member stands. */
    enum Phase {
        /** Campaigning, before its first term. */
        JOINING,
        /** In a term: its Lease was renewed lately. Check {@link #term()} before acting, as a leader would. */
        MEMBER,
        /** Its term ended while its Lease was untouched: campaigning again for a new term on the same caches. */
        LOST,
        /** Its Lease was taken, deleted or released by someone else after it had held it: it never runs again. */
        TAINTED,
        /** It stopped campaigning (closed, or abandoned its Lease to expire). */
        LEFT
    }

    /** This member's id: the holder it writes into its Lease and the value of the shard label it owns. */
    String shardId();

    /** Its Lease, as {@code <namespace>/<name>}. */
    String lease();

    /** Where it stands now. */
    Phase phase();

    /**
     * The current term while {@link #phase()} is {@link Phase#MEMBER}, for reconcilers that check
     * {@link Leadership#isValid()} before side effects; empty otherwise.
     */
    Optional<Leadership> term();
}

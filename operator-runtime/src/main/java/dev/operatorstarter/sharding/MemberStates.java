package dev.operatorstarter.sharding;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * The judge of a member's state ({@code docs/design/sharding.md}, "Decisions"): a pure function of
 * what the assigner observed and when, and the time now, all on the assigner's monotonic clock.
 *
 * <table>
 *   <caption>The rules, for an observation whose record changed at {@code changedAt}</caption>
 *   <tr><th>holder</th><th>time</th><th>state</th></tr>
 *   <tr><td>the member</td><td>{@code now - changedAt < leaseDuration}</td>
 *       <td>{@link MemberState#READY}</td></tr>
 *   <tr><td>the member</td><td>{@code now - changedAt >= leaseDuration}</td>
 *       <td>{@link MemberState#EXPIRED}; {@link MemberState#UNCERTAIN} after a failed take</td></tr>
 *   <tr><td>anyone else, or nobody</td><td>{@code now - changedAt < orphanTtl}</td>
 *       <td>{@link MemberState#DEAD}</td></tr>
 *   <tr><td>anyone else, or nobody</td><td>{@code now - changedAt >= orphanTtl}</td>
 *       <td>{@link MemberState#ORPHANED}</td></tr>
 * </table>
 *
 * <p>The lease duration is the one the member wrote into its record. A DEAD member is timed from the
 * change that made it dead (its release, the take), or from the assigner's first sight of it.
 */
final class MemberStates {

    private MemberStates() {
    }

    /** {@code observed}'s state at {@code nowNanos}. */
    static MemberState judge(Members.Observation observed, long nowNanos, Duration orphanTtl) {
        long unchanged = nowNanos - observed.changedAtNanos();
        if (observed.heldByMember()) {
            if (unchanged < observed.record().leaseDuration().toNanos()) {
                return MemberState.READY;
            }
            return observed.takeFailed() ? MemberState.UNCERTAIN : MemberState.EXPIRED;
        }
        return unchanged < orphanTtl.toNanos() ? MemberState.DEAD : MemberState.ORPHANED;
    }

    /**
     * When {@code observed}'s state, as judged at {@code nowNanos}, changes by time alone: a READY
     * member expires, a DEAD one is orphaned; empty for the other states, which only a new
     * observation or a take changes.
     */
    static OptionalLong changesAt(Members.Observation observed, long nowNanos, Duration orphanTtl) {
        return switch (judge(observed, nowNanos, orphanTtl)) {
            case READY -> OptionalLong.of(observed.changedAtNanos() + observed.record().leaseDuration().toNanos());
            case DEAD -> OptionalLong.of(observed.changedAtNanos() + orphanTtl.toNanos());
            case EXPIRED, UNCERTAIN, ORPHANED -> OptionalLong.empty();
        };
    }
}

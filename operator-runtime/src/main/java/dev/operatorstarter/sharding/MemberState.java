package dev.operatorstarter.sharding;

/**
 * What the assigner knows of a ring member, judged from its Lease on the assigner's own clock.
 */
public enum MemberState {
    /** It renewed its Lease less than a lease duration ago: it is in the ring and gets objects. */
    READY,
    /** A lease duration passed without a renewal: out of the ring; its objects wait until its Lease is taken. */
    EXPIRED,
    /** Expired, and taking its Lease failed for another reason than a renewal: its objects still wait. */
    UNCERTAIN,
    /** It released its Lease, or the assigner took it: its term is over for good, its objects move. */
    DEAD,
    /** Dead for long enough that its Lease is deleted. */
    ORPHANED;

    /** Whether the member is in the hash ring (only {@link #READY} members are). */
    public boolean inRing() {
        return this == READY;
    }

    /** Whether the member may still be reconciling: its objects do not move without its acknowledgement or a take. */
    public boolean live() {
        return this == READY || this == EXPIRED || this == UNCERTAIN;
    }
}

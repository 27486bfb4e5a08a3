package dev.operatorstarter.sharding;

/**
 * Why this replica's part in a ring cannot go on; the subclass names what happened.
 */
public abstract sealed class ShardingException extends RuntimeException permits ShardingException.MemberTaken {

    private final String shardId;

    ShardingException(String shardId, String message) {
        super(message);
        this.shardId = shardId;
    }

    /** The member this happened to. */
    public String shardId() {
        return shardId;
    }

    /**
     * This member's Lease, which it had held, was taken by the assigner, deleted, released by
     * someone else, or changed hands and came back: the member may have been declared dead and its
     * objects given to others, so it never writes its Lease again and never starts another term
     * ({@link Membership.Phase#TAINTED}). Only a new process, with a new shard id, joins again.
     */
    public static final class MemberTaken extends ShardingException {
        MemberTaken(String shardId, String message) {
            super(shardId, message);
        }
    }
}

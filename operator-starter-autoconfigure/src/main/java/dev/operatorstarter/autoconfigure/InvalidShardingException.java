package dev.operatorstarter.autoconfigure;

/**
 * Sharding settings that cannot work ({@code operator.sharding.*}): sharding without leader
 * election, a ring name or shard id that is not a DNS label, a controller name that names no
 * {@code @Reconciler}, two sharded controllers that would need two tokens on one object. Says
 * which property or controller is wrong and how to fix it; start-up fails with it, and a failure
 * analyzer prints it instead of a stack trace.
 */
public final class InvalidShardingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String fix;

    /**
     * @param problem what is wrong, naming the property or controller
     * @param fix what to do about it
     */
    public InvalidShardingException(String problem, String fix) {
        this(problem, fix, null);
    }

    public InvalidShardingException(String problem, String fix, Throwable cause) {
        super(problem, cause);
        this.fix = fix;
    }

    /** What to do about it. */
    public String fix() {
        return fix;
    }
}

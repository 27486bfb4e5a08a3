package dev.operatorstarter.test.faults;

/**
 * One {@link Fault} in place in a {@link FaultProxy}, for the requests a {@link RequestMatcher}
 * selects: the test's handle to count what it matched, release what it holds, and remove it.
 * Thread-safe.
 */
public interface Injection {

    /** The fault. */
    Fault fault();

    /** The requests it applies to. */
    RequestMatcher requests();

    /**
     * How many requests it has applied to so far (for {@link Fault#none()}: how many matched), counted
     * when a request's head has arrived, before the fault acts.
     */
    long matched();

    /** How many requests a {@link Fault#hang()} holds now; 0 for other faults. */
    int held();

    /**
     * Forwards the requests a {@link Fault#hang()} holds now, as if they had just arrived without a
     * fault; requests that match later are held again. Does nothing for other faults.
     */
    void release();

    /**
     * Takes the fault out: later requests no longer see it, and requests it holds are forwarded.
     * A request already being forwarded keeps it. Idempotent.
     */
    void remove();

    /** Whether it still applies: not removed, and not spent (when injected for a number of requests). */
    boolean isActive();
}

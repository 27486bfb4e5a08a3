package dev.operatorstarter.leaderelection;

import java.time.Duration;

/**
 * One term of leadership, given to {@link LeaderCallbacks#onStartedLeading}. It ends when the
 * lease is lost or released; then {@link #isValid()} turns false and waiters wake.
 */
public interface Leadership {

    /**
     * True while this term lasts: the lease was renewed less than the renew deadline ago by this
     * process's monotonic clock. Check it before each action that only the leader may take; it
     * turns false by itself when renewals stop (for example after the process was paused), before
     * another candidate can have taken over. It can turn true again within the same term when a
     * late renewal succeeds (a renewal is a compare-and-swap on the lock, so nobody took over in
     * between); a term that has {@linkplain #awaitEnd ended} never becomes valid again.
     */
    boolean isValid();

    /** Waits until this term ends. @throws InterruptedException if interrupted */
    void awaitEnd() throws InterruptedException;

    /** Waits up to {@code timeout} for this term to end; true if it ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException;
}

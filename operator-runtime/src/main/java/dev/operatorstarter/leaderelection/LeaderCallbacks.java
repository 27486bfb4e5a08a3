package dev.operatorstarter.leaderelection;

/**
 * What to do when leadership changes. {@link #onStartedLeading} runs on its own thread, only
 * after this candidate's write to the lock succeeded; the other two run on the elector's thread
 * and must return quickly. Exceptions are logged and do not stop the elector.
 */
public interface LeaderCallbacks {

    /**
     * This candidate became the leader. Do the leader's work until {@code leadership} ends (check
     * {@link Leadership#isValid()} before acting, or wait with {@link Leadership#awaitEnd()}).
     */
    void onStartedLeading(Leadership leadership);

    /** This candidate stopped leading (lost the lease, or released it on close). */
    default void onStoppedLeading() {
    }

    /** The lock shows a different holder than before ({@code ""} when released). */
    default void onNewLeader(String identity) {
    }
}

package dev.operatorstarter.manager;

import dev.operatorstarter.leaderelection.LeaderCallbacks;

/**
 * Where the terms of the {@link RunnableGroup#MEMBER_TERM} group come from: a campaign of this
 * replica's own (a sharding ring's member Lease), installed by a {@link ManagerPlugin}. The manager
 * starts it once the caches synced and ends it on {@link Manager#close()}, after the group stopped.
 */
public interface MemberTerms {

    /**
     * Starts campaigning: each term calls {@code terms}' {@code onStartedLeading}, and its end
     * {@code onStoppedLeading}, from one thread at a time.
     */
    void start(LeaderCallbacks terms);

    /**
     * Stops campaigning and ends a term in progress.
     *
     * @param drained whether everything the group ran has stopped: only then may the membership
     *     be released at once; otherwise it is left to expire, as if the process had died
     */
    void end(boolean drained);
}

package dev.operatorstarter.manager;

/**
 * The groups a {@link Manager} runs its {@link ManagedRunnable}s in (controller-runtime's runnable
 * groups). The manager starts the groups in this order and stops them in reverse: a group starts
 * only once the one before it is up, and stops only once the one after it has stopped.
 */
public enum RunnableGroup {

    /** Webhook servers: up before the caches, whose lists may need a conversion webhook. */
    WEBHOOKS,

    /**
     * The informers: the manager runs its informer factory here (nothing else is added to this
     * group); the groups after it start once every cache has synced.
     */
    CACHES,

    /** Runnables that run on every replica once the caches synced, leader or not. */
    ALWAYS,

    /**
     * Runnables that run only while this replica leads: started in each term of the leader
     * election, in the order added, and stopped in reverse when the term ends. Without leader
     * election there is one term, from the caches' sync to {@link Manager#close()}. The default
     * group of a controller.
     */
    LEADER_TERM,

    /**
     * Runnables that run in the terms of this replica's membership (a sharding ring's member
     * Lease), given by the {@link MemberTerms} a {@link ManagerPlugin} installed; started and
     * stopped as {@link #LEADER_TERM}'s are.
     */
    MEMBER_TERM
}

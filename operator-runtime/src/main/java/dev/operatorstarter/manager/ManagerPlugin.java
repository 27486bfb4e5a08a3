package dev.operatorstarter.manager;

import dev.operatorstarter.cache.SharedInformerFactory;

/**
 * A capability that extends a {@link Manager} through its extension points rather than being part
 * of it (the sharding is one): it adds runnables to the groups and may give the member terms.
 * Installed with {@link ManagerBuilder#plugin} when the manager is built.
 */
public interface ManagerPlugin {

    /**
     * Installs this plugin into the manager being built.
     *
     * @throws IllegalStateException when the manager cannot run it (say what is missing)
     */
    void install(Extensions manager);

    /** What a plugin may use of the manager being built. */
    interface Extensions {

        /** The manager's informer factory. */
        SharedInformerFactory informers();

        /** Whether the manager elects a leader ({@link ManagerBuilder#leaderElection}). */
        boolean electsLeader();

        /** Adds {@code runnable} to {@code group}, as {@link Manager#add} does. */
        void add(ManagedRunnable runnable, RunnableGroup group);

        /**
         * Gives the terms of the {@link RunnableGroup#MEMBER_TERM} group.
         *
         * @throws IllegalStateException when another plugin gave them already
         */
        void memberTerms(MemberTerms terms);
    }
}

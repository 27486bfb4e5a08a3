package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.leaderelection.LeaderElectionConfig;

/**
 * Customizes the operator's leader election (for example its thread factory, or durations
 * computed at run time) after the {@code operator.leader-election.*} properties were applied.
 * The lock and the callbacks are the manager's and cannot be changed.
 */
@FunctionalInterface
public interface LeaderElectionCustomizer {

    void customize(LeaderElectionConfig.Builder config);
}

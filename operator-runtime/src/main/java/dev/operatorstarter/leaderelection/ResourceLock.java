package dev.operatorstarter.leaderelection;

import java.util.Optional;

/**
 * Where the {@link LeaderElectionRecord} lives (client-go's {@code resourcelock.Interface}).
 * Writes are compare-and-swap on the version read: a concurrent writer makes one of them fail.
 */
public interface ResourceLock {

    /** The record and the version to update it from. */
    record Observed(LeaderElectionRecord record, String version) {
    }

    /** The current record, or empty when the lock object does not exist. */
    Optional<Observed> get();

    /** Creates the lock object; fails if it exists. */
    void create(LeaderElectionRecord record);

    /** Replaces the record, if the lock object is still at {@code version}; fails otherwise. */
    void update(LeaderElectionRecord record, String version);

    /** This candidate's identity. */
    String identity();

    /** For logs and the metric: for example {@code lease default/my-operator}. */
    String describe();
}

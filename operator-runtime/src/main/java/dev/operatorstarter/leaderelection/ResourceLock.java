package dev.operatorstarter.leaderelection;

import java.time.Duration;
import java.util.Optional;

/**
 * Where the {@link LeaderElectionRecord} lives (client-go's {@code resourcelock.Interface}).
 * Writes are compare-and-swap on the version read: a concurrent writer makes one of them fail.
 *
 * <p>Every call takes a deadline: it must return or throw within it, as one attempt (no retries
 * that would outlive it), because the elector's guarantees are timed and a hung call must not
 * keep a term alive.
 */
public interface ResourceLock {

    /** The record and the version to update it from. */
    record Observed(LeaderElectionRecord record, String version) {
    }

    /** The current record, or empty when the lock object does not exist; gives up after {@code deadline}. */
    Optional<Observed> get(Duration deadline);

    /** Creates the lock object; fails if it exists; gives up after {@code deadline}. */
    void create(LeaderElectionRecord record, Duration deadline);

    /**
     * Replaces the record, if the lock object is still at {@code version}; fails otherwise; gives
     * up after {@code deadline} (the write may still have happened: the caller reads again).
     */
    void update(LeaderElectionRecord record, String version, Duration deadline);

    /** This candidate's identity. */
    String identity();

    /** For logs and the metric: for example {@code lease default/my-operator}. */
    String describe();
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assigner's writes to member Leases, each a compare-and-swap on the version it observed:
 * {@link #take} an expired member's Lease, {@link #deleteOrphan} delete an orphaned one, and
 * {@link #markReady} label a member it sees ready for the first time (for people to read). A Lease
 * that changed since it was observed (the member renewed) is never written: the server refuses
 * the write with 409, and the assigner judges again from what its informer delivers next.
 *
 * <p>Each write is a single attempt within the request deadline (no retries: a retried take
 * could look like a conflict with itself). Thread-safe.
 */
final class LeaseTake {

    /** The holder's prefix in a Lease the assigner took; never a valid shard id, so never a member. */
    static final String ASSIGNER_PREFIX = "assigner:";
    /** The value of {@link ShardLabels#STATE_LABEL} on a taken Lease. */
    static final String DEAD = "dead";
    /** The value of {@link ShardLabels#STATE_LABEL} on the Lease of a member the assigner saw ready. */
    static final String READY = "ready";

    private static final Logger log = LoggerFactory.getLogger(LeaseTake.class);

    /** What came of a take or a delete. */
    sealed interface Outcome {

        /** The Lease is the assigner's now: {@code lease} as written. */
        record Taken(Lease lease) implements Outcome {
        }

        /** The Lease's state label is written: {@code lease} as written. */
        record Labelled(Lease lease) implements Outcome {
        }

        /** The Lease is gone (deleted now, or before). */
        record Deleted() implements Outcome {
        }

        /** The Lease is no longer as observed (renewed, changed or deleted since): nothing was written. */
        record Changed() implements Outcome {
        }

        /** The write failed otherwise (refused, timed out, unreachable): nothing is known. */
        record Failed(RuntimeException cause) implements Outcome {
        }
    }

    private final ResourceClient<Lease> leases;
    private final String holder;
    private final Duration leaseDuration;
    private final Duration deadline;
    private final TimeSource time;

    /**
     * @param leases the member Leases' client, in their namespace
     * @param assignerShardId the shard id of the replica that assigns (the leader): a taken Lease
     *     is held by {@code assigner:<assignerShardId>}
     * @param leaseDuration written into a taken Lease
     * @param deadline how long one write may take
     * @param time wall time for the record's acquire and renew times
     */
    LeaseTake(ResourceClient<Lease> leases, String assignerShardId, Duration leaseDuration, Duration deadline,
            TimeSource time) {
        this.leases = Objects.requireNonNull(leases, "leases");
        this.holder = ASSIGNER_PREFIX + Objects.requireNonNull(assignerShardId, "assignerShardId");
        this.leaseDuration = Objects.requireNonNull(leaseDuration, "leaseDuration");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.time = Objects.requireNonNull(time, "time");
    }

    /**
     * Takes the Lease {@code observed}, if it is still at the observed resourceVersion: the assigner
     * becomes the holder (one more transition, so the member is tainted when it reads it), the
     * Lease's labels stay (its shard label still names the member) and
     * {@code sharding.operatorstarter.dev/state=dead} is added.
     *
     * @return {@link Outcome.Taken}, {@link Outcome.Changed} (409 or 404), or {@link Outcome.Failed}
     */
    Outcome take(Lease observed) {
        LeaderElectionRecord record = LeaderElectionRecord.of(observed.getSpec()).writtenBy(holder, leaseDuration,
                time.now());
        Lease taken = new LeaseBuilder(observed).editMetadata().addToLabels(ShardLabels.STATE_LABEL, DEAD).endMetadata()
                .withSpec(record.toLeaseSpec()).build();
        String name = observed.getMetadata().getName();
        try {
            Lease written = leases.withDeadline(deadline).update(taken);
            log.info("took lease {} of member {} (it was not renewed for its lease duration)", name,
                    Members.shardOf(observed));
            return new Outcome.Taken(written);
        } catch (RuntimeException e) {
            if (ApiErrors.isConflict(e) || ApiErrors.isNotFound(e)) {
                log.debug("lease {} changed since version {}: not taken", name,
                        observed.getMetadata().getResourceVersion());
                return new Outcome.Changed();
            }
            log.warn("cannot take lease {}: {}", name, e.getMessage());
            return new Outcome.Failed(e);
        }
    }

    /**
     * Labels the Lease {@code observed} {@code sharding.operatorstarter.dev/state=ready}, if it is
     * still at the observed resourceVersion (a merge patch with the version as precondition: the
     * member's record is left as it is). The member's next renewal, if based on the version before,
     * then fails once with a conflict and is retried a retry period later, well within its renew
     * deadline.
     *
     * @return {@link Outcome.Labelled}, {@link Outcome.Changed} (409 or 404), or {@link Outcome.Failed}
     */
    Outcome markReady(Lease observed) {
        String name = observed.getMetadata().getName();
        String body = LabelPatch.at(observed.getMetadata().getResourceVersion()).label(ShardLabels.STATE_LABEL, READY)
                .toString();
        try {
            return new Outcome.Labelled(leases.withDeadline(deadline).patch(name, PatchType.MERGE, body));
        } catch (RuntimeException e) {
            if (ApiErrors.isConflict(e) || ApiErrors.isNotFound(e)) {
                return new Outcome.Changed();
            }
            log.warn("cannot label lease {} ready: {}", name, e.getMessage());
            return new Outcome.Failed(e);
        }
    }

    /**
     * Deletes the Lease {@code observed}, if it is still the same object at the observed
     * resourceVersion (preconditions on uid and resourceVersion).
     *
     * @return {@link Outcome.Deleted} (also when it was gone already), {@link Outcome.Changed} (409),
     *     or {@link Outcome.Failed}
     */
    Outcome deleteOrphan(Lease observed) {
        String name = observed.getMetadata().getName();
        try {
            leases.withDeadline(deadline).delete(name, DeleteOptions.defaults()
                    .withPreconditions(observed.getMetadata().getUid(), observed.getMetadata().getResourceVersion()));
            log.info("deleted lease {} of dead member {}", name, Members.shardOf(observed));
            return new Outcome.Deleted();
        } catch (RuntimeException e) {
            if (ApiErrors.isNotFound(e)) {
                return new Outcome.Deleted();
            }
            if (ApiErrors.isConflict(e)) {
                log.debug("lease {} changed since version {}: not deleted", name,
                        observed.getMetadata().getResourceVersion());
                return new Outcome.Changed();
            }
            log.warn("cannot delete lease {}: {}", name, e.getMessage());
            return new Outcome.Failed(e);
        }
    }
}

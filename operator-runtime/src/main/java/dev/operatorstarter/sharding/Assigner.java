package dev.operatorstarter.sharding;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ring's assigner ({@code docs/design/sharding.md}, "Decisions"): in each term of the replica
 * that leads the operator's leader election, it gives every object of the registered
 * {@link ShardedResource}s a shard and moves objects as members come and go, by labels alone. It
 * keeps no state across terms: everything it decides from is in the objects' labels and the member
 * Leases, so a new leader resumes any half-done handover.
 *
 * <p>Each term ({@link AssignerTerm}) makes its own metadata-only caches of the sharded objects
 * (listed afresh: objects keep their shards meanwhile) and of the ring's member Leases; judges the
 * members on its own monotonic clock, from when it saw each Lease's record change
 * ({@link MemberLoop}); and decides per object with {@link AssignmentStep}
 * ({@link AssignmentHandler}).
 *
 * <p>Guarantees: nothing is written while the term is not {@linkplain Leadership#isValid() valid},
 * and every write is a compare-and-swap on the version of the object it was decided on. A token
 * leaves a member that may still be reconciling only by that member's acknowledgement of a drain;
 * it leaves a member whose Lease was released or taken (after it went unrenewed for its lease
 * duration) by a forced move. Children are labelled before their owner gets its token, and the
 * owner's arrival annotation counts them.
 *
 * <p>Threading: {@link #onStartedLeading} runs on the elector's term thread and returns once the
 * term's caches synced and its controllers started (or the term ended); {@link #onStoppedLeading}
 * stops them without waiting for decisions in flight (another leader may act already).
 * {@link #register} and {@link #status} are thread-safe.
 */
final class Assigner implements LeaderCallbacks {

    private static final Logger log = LoggerFactory.getLogger(Assigner.class);

    private final KubernetesClient client;
    private final ShardingOptions options;
    private final List<ShardedResource<?>> resources = new CopyOnWriteArrayList<>();
    private final Object terms = new Object();
    private @Nullable AssignerTerm current; // guarded by terms

    Assigner(KubernetesClient client, ShardingOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** Adds {@code resource} to what is assigned, from the next term on. */
    void register(ShardedResource<?> resource) {
        resources.add(Objects.requireNonNull(resource, "resource"));
    }

    /** The registered resources. */
    List<ShardedResource<?>> resources() {
        return List.copyOf(resources);
    }

    @Override
    public void onStartedLeading(Leadership leadership) {
        AssignerTerm term = new AssignerTerm(client, options, List.copyOf(resources), leadership);
        AssignerTerm previous;
        synchronized (terms) {
            previous = current;
            current = term;
        }
        if (previous != null) {
            previous.stop(); // the elector ends a term before it starts the next: only for a caller that does not
        }
        try {
            term.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the term ends; onStoppedLeading stops it
        } catch (RuntimeException e) {
            log.error("assigner of ring {}: did not start; nothing is assigned until the next leader term",
                    options.ring(), e);
            synchronized (terms) {
                if (current == term) {
                    current = null;
                }
            }
            term.stop();
        }
    }

    @Override
    public void onStoppedLeading() {
        AssignerTerm ended;
        synchronized (terms) {
            ended = current;
            current = null;
        }
        if (ended != null) {
            ended.stop();
            log.info("assigner of ring {}: stopped", options.ring());
        }
    }

    /** What the assigner sees in the current term; empty while this replica does not lead. Local and cheap. */
    Optional<AssignerStatus> status() {
        AssignerTerm term;
        synchronized (terms) {
            term = current;
        }
        return term == null ? Optional.empty() : Optional.of(term.status());
    }
}

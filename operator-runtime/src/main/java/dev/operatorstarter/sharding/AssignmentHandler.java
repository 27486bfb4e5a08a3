package dev.operatorstarter.sharding;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.sharding.AssignmentStep.Outcome;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assigner's reconcile of one primary object of one {@link ShardedResource}: it reads the object
 * and the objects it controls from the assigner's metadata caches, asks {@link AssignmentStep} what
 * comes next given the shard the ring gives the object ({@code namespace/name} hashed) and the
 * members' states, and makes the writes in order, each a {@link LabelPatch} with the cached
 * {@code resourceVersion} as precondition and each only while the leader term is valid.
 *
 * <p>A write refused as stale (409) ends the reconcile and puts the object back, rate-limited: it is
 * decided again from a newer cache. An object waiting for a member to join is looked at again each
 * retry period; every other wait ends with an event (an acknowledgement, a member's change, which
 * makes the assigner look at every object). Writes to the owner are recorded for the controller's
 * read-your-writes, so its next decision is made on a cache that shows them.
 */
final class AssignmentHandler implements ReconcileHandler<PartialObjectMetadata> {

    private static final Logger log = LoggerFactory.getLogger(AssignmentHandler.class);

    /** An object the owner controls, as cached, with its resource. */
    record Cached(GroupVersionResource resource, PartialObjectMetadata object) {
    }

    /** What the handler reads: the assigner's metadata caches. */
    interface Caches {

        /** The primary object {@code key}; empty when it is not cached (deleted). */
        Optional<PartialObjectMetadata> owner(String key);

        /** The objects the primary {@code key} controls, each once. */
        List<Cached> children(String key);
    }

    /** One label write to the API server: a merge patch; returns the object as written, throws the API's errors. */
    @FunctionalInterface
    interface Writer {
        HasMetadata patch(GroupVersionResource resource, String namespace, String name, String body);
    }

    private final ShardedResource<?> resource;
    private final ShardingOptions options;
    private final ShardLabels labels;
    private final Caches caches;
    private final Supplier<MemberLoop.View> view;
    private final BooleanSupplier leading;
    private final Writer writer;
    private final Consumer<HasMetadata> ownerWritten;
    private final Backlog backlog;

    /**
     * @param view the ring as last judged
     * @param leading whether the leader term is valid: nothing is written while it is not
     * @param ownerWritten told of every write to a primary object (as the server returned it)
     */
    AssignmentHandler(ShardedResource<?> resource, ShardingOptions options, Caches caches,
            Supplier<MemberLoop.View> view, BooleanSupplier leading, Writer writer, Consumer<HasMetadata> ownerWritten,
            Backlog backlog) {
        this.resource = Objects.requireNonNull(resource, "resource");
        this.options = Objects.requireNonNull(options, "options");
        this.labels = options.labels();
        this.caches = Objects.requireNonNull(caches, "caches");
        this.view = Objects.requireNonNull(view, "view");
        this.leading = Objects.requireNonNull(leading, "leading");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.ownerWritten = Objects.requireNonNull(ownerWritten, "ownerWritten");
        this.backlog = Objects.requireNonNull(backlog, "backlog");
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        String key = request.key();
        Optional<PartialObjectMetadata> cached = caches.owner(key);
        if (cached.isEmpty()) {
            backlog.decided(resource.resource(), key, null);
            return ReconcileResult.done();
        }
        ObjectMeta owner = cached.get().getMetadata();
        Map<AssignmentStep.Child, Cached> children = new LinkedHashMap<>();
        for (Cached child : caches.children(key)) {
            ObjectMeta meta = child.object().getMetadata();
            children.put(new AssignmentStep.Child(child.resource().groupResource(),
                    Objects.requireNonNullElse(meta.getNamespace(), ""), meta.getName(), label(meta, labels.token())),
                    child);
        }
        MemberLoop.View ring = view.get();
        AssignmentStep.Step step = AssignmentStep.next(new AssignmentStep.Owner(label(owner, labels.token()),
                label(owner, labels.drain()) != null, owner.getDeletionTimestamp() != null),
                List.copyOf(children.keySet()), ring.ring().ownerOf(key), ring::stateOf);
        for (AssignmentStep.Write write : step.writes()) {
            if (!leading.getAsBoolean()) {
                return ReconcileResult.requeueAfter(options.retryPeriod()); // the term ends, or comes back
            }
            try {
                if (write instanceof AssignmentStep.LabelChild child) {
                    labelChild(children.get(child.child()), child.shard(), step.outcome());
                } else {
                    writeOwner(request, owner, write, step.outcome());
                }
            } catch (ApiException.Conflict | ApiException.NotFound stale) {
                log.debug("{} {}: {} refused ({}); deciding again", resource.resource(), key, write, stale.getMessage());
                return ReconcileResult.requeue();
            }
        }
        backlog.decided(resource.resource(), key, step.outcome());
        if (step.outcome() != Outcome.SETTLED) {
            log.debug("{} {}: {} {}", resource.resource(), key, step.outcome(), step.writes());
        }
        return step.outcome() == Outcome.WAITING_FOR_A_MEMBER ? ReconcileResult.requeueAfter(options.retryPeriod())
                : ReconcileResult.done();
    }

    private void labelChild(Cached child, String shard, Outcome outcome) {
        ObjectMeta meta = child.object().getMetadata();
        writer.patch(child.resource(), Objects.requireNonNullElse(meta.getNamespace(), ""), meta.getName(),
                LabelPatch.at(meta.getResourceVersion()).label(labels.token(), shard).toString());
        count(outcome, child.resource().groupResource());
    }

    private void writeOwner(ReconcileRequest request, ObjectMeta owner, AssignmentStep.Write write, Outcome outcome) {
        LabelPatch patch = LabelPatch.at(owner.getResourceVersion());
        if (write instanceof AssignmentStep.Assign assign) {
            patch = patch.label(labels.token(), assign.shard()).label(labels.drain(), null)
                    .annotation(labels.arrival(), assign.arrival());
        } else if (write instanceof AssignmentStep.RequestDrain) {
            patch = patch.label(labels.drain(), "true");
        } else {
            patch = patch.label(labels.drain(), null); // CancelDrain
        }
        ownerWritten.accept(writer.patch(resource.type().groupVersionResource(), request.namespace(), request.name(),
                patch.toString()));
        if (write instanceof AssignmentStep.RequestDrain) {
            options.metrics().drainRequested(options.ring(), resource.resource());
        } else if (write instanceof AssignmentStep.Assign) {
            count(outcome, resource.resource());
        }
    }

    /** A token written: a forced move off a gone shard, or an assignment. */
    private void count(Outcome outcome, String writtenResource) {
        if (outcome == Outcome.MOVED) {
            options.metrics().moved(options.ring(), writtenResource);
        } else {
            options.metrics().assigned(options.ring(), writtenResource);
        }
    }

    private static @Nullable String label(ObjectMeta meta, String key) {
        Map<String, String> objectLabels = meta.getLabels();
        return objectLabels == null ? null : objectLabels.get(key);
    }
}

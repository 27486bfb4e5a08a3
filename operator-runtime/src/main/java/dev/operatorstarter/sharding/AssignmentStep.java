package dev.operatorstarter.sharding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The assigner's decision for one primary object: from its labels, its children's, the shard the
 * ring gives it and the members' states, which label writes come next (none, when it must wait).
 * A pure function: the assigner executes the writes in order, each with the object's
 * {@code resourceVersion} as a precondition, and decides again from a newer cache when one fails.
 *
 * <p>The rule that keeps two shards from reconciling one object: the token leaves a shard that
 * may still be reconciling ({@link MemberState#live()}) only by that shard's own acknowledgement
 * of a drain request; it leaves a shard that is {@linkplain MemberState#DEAD dead} (its Lease
 * released or taken) by a forced move. Children are relabelled only when no live shard holds the
 * owner (tokenless, or its shard gone), or to the owner's own shard.
 */
final class AssignmentStep {

    private AssignmentStep() {
    }

    /**
     * The owner as the assigner's cache shows it.
     *
     * @param token the shard its token names, or null
     * @param drain whether its drain label is set
     * @param deleting whether it has a deletion timestamp
     */
    record Owner(@Nullable String token, boolean drain, boolean deleting) {
    }

    /**
     * One child (an object the owner controls) as the assigner's cache shows it.
     *
     * @param resource {@code plural[.group]}, as in the arrival annotation
     * @param namespace its namespace, empty for cluster-scoped
     * @param name its name
     * @param token the shard its token names, or null
     */
    record Child(String resource, String namespace, String name, @Nullable String token) {
    }

    /** A label write. */
    sealed interface Write {
    }

    /** Set {@code child}'s token to {@code shard}. */
    record LabelChild(Child child, String shard) implements Write {
    }

    /**
     * Give the owner to {@code shard}: token {@code shard}, no drain label, and the arrival
     * annotation {@code arrival} (children per resource the new shard must hold before its first
     * reconcile; null removes it).
     */
    record Assign(String shard, @Nullable String arrival) implements Write {
    }

    /** Ask the owner's shard to let it go: set the drain label. */
    record RequestDrain() implements Write {
    }

    /** The ring gave the owner back to its shard before it acknowledged: remove the drain label. */
    record CancelDrain() implements Write {
    }

    /** What the step amounts to, for the assigner's metrics and logs. */
    enum Outcome {
        /** Nothing to write: the owner and its children are where the ring wants them. */
        SETTLED,
        /** A tokenless owner was given a shard. */
        ASSIGNED,
        /** The owner was forced off a dead shard. */
        MOVED,
        /** Children were labelled with their owner's shard. */
        CHILDREN_LABELLED,
        /** A drain was requested. */
        DRAIN_REQUESTED,
        /** A drain was cancelled. */
        DRAIN_CANCELLED,
        /** No member is in the ring: the owner waits. */
        WAITING_FOR_A_MEMBER,
        /** A drain is requested: waiting for the shard's acknowledgement. */
        WAITING_FOR_THE_ACK,
        /**
         * The owner's shard expired: waiting until its Lease is taken (or it renews), or, when its
         * Lease was deleted or never seen, until a lease duration has passed.
         */
        WAITING_FOR_THE_TAKE,
        /** The owner is being deleted where it is. */
        DELETING
    }

    /** The writes, in order, and what they amount to. */
    record Step(List<Write> writes, Outcome outcome) {

        Step {
            writes = List.copyOf(writes);
        }

        static Step waiting(Outcome outcome) {
            return new Step(List.of(), outcome);
        }
    }

    /**
     * The next step for {@code owner}.
     *
     * @param owner the owner's labels
     * @param children the objects it controls
     * @param desired the shard the ring gives it; empty when the ring has no member
     * @param states each shard's state (the assigner's {@link MemberLoop.View} also judges shards it saw
     *     no Lease of: live for a lease duration, then dead); null counts as {@link MemberState#DEAD}
     */
    static Step next(Owner owner, List<Child> children, Optional<String> desired,
            Function<String, @Nullable MemberState> states) {
        Objects.requireNonNull(owner, "owner");
        String held = owner.token();
        MemberState holder = held == null ? null : Objects.requireNonNullElse(states.apply(held), MemberState.DEAD);
        if (held == null || !holder.live()) {
            if (desired.isEmpty()) {
                return Step.waiting(Outcome.WAITING_FOR_A_MEMBER);
            }
            List<Write> writes = new ArrayList<>(relabel(children, desired.get()));
            writes.add(new Assign(desired.get(), arrival(children)));
            return new Step(writes, held == null ? Outcome.ASSIGNED : Outcome.MOVED);
        }
        if (owner.deleting()) {
            List<Write> writes = new ArrayList<>(relabel(children, held));
            if (owner.drain()) {
                writes.add(new CancelDrain()); // it is deleted where it is; nothing will ack
            }
            return new Step(writes, Outcome.DELETING);
        }
        if (desired.isPresent() && desired.get().equals(held)) {
            if (owner.drain()) {
                return new Step(List.of(new CancelDrain()), Outcome.DRAIN_CANCELLED);
            }
            List<Write> writes = relabel(children, held);
            return new Step(writes, writes.isEmpty() ? Outcome.SETTLED : Outcome.CHILDREN_LABELLED);
        }
        // the ring wants it elsewhere (or nowhere): only its shard may let it go
        if (holder != MemberState.READY) {
            return Step.waiting(Outcome.WAITING_FOR_THE_TAKE);
        }
        if (desired.isEmpty()) {
            return Step.waiting(Outcome.WAITING_FOR_A_MEMBER); // cannot happen: a READY holder is in the ring
        }
        if (owner.drain()) {
            return Step.waiting(Outcome.WAITING_FOR_THE_ACK);
        }
        return new Step(List.of(new RequestDrain()), Outcome.DRAIN_REQUESTED);
    }

    private static List<Write> relabel(List<Child> children, String shard) {
        return children.stream().filter(child -> !shard.equals(child.token()))
                .<Write>map(child -> new LabelChild(child, shard)).toList();
    }

    /** {@code configmaps=3,deployments.apps=1}: every child, by resource in name order; null without children. */
    static @Nullable String arrival(List<Child> children) {
        if (children.isEmpty()) {
            return null;
        }
        Map<String, Long> counts = children.stream()
                .collect(Collectors.groupingBy(Child::resource, TreeMap::new, Collectors.counting()));
        return counts.entrySet().stream().map(count -> count.getKey() + "=" + count.getValue())
                .collect(Collectors.joining(","));
    }
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assigner's side of the member Leases, for one leader term, on one thread: whenever the
 * ring's Lease informer delivers a change, and whenever a member's state is due to change by time
 * alone ({@link Members#nextChangeAt}), it judges every member, publishes the ring of the READY
 * ones ({@link View}), and does the Lease writes that are due ({@link Chore}): take an expired
 * member's Lease, label a member seen ready for the first time, delete an orphaned Lease. When the
 * ring's members change, or a member stops being live (its objects may now be forced away), it
 * tells the assigner, which then looks at every object again.
 *
 * <p>Each write is a compare-and-swap on the version observed ({@link LeaseTake}) and is made only
 * while the leader term is valid. A write is not repeated on the same version of a Lease, except a
 * failed one (neither done nor refused with a conflict), which is tried again each retry period: a
 * failed take makes the member {@link MemberState#UNCERTAIN} until then.
 *
 * <p>Lifecycle: {@link #handler()} goes on the Lease informer before it starts; {@link #start()}
 * (once that handler has synced) judges at once, publishes the first view, then starts the thread;
 * {@link #close()} stops it. Thread-safe.
 */
final class MemberLoop implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MemberLoop.class);

    /**
     * The ring as the loop last judged it.
     *
     * @param ring the READY members, hashed
     * @param states every member with a Lease or a tombstone, by shard id ({@link Members#states})
     * @param unknown the state of any other member ({@link Members#unknownState}): EXPIRED for a
     *     lease duration after the Lease informer synced, DEAD afterwards
     */
    record View(HashRing ring, SortedMap<String, MemberState> states, MemberState unknown) {

        View {
            Objects.requireNonNull(ring, "ring");
            states = Collections.unmodifiableSortedMap(new TreeMap<>(states));
            Objects.requireNonNull(unknown, "unknown");
        }

        /** The state of {@code shardId}, {@link #unknown} when the loop knows nothing of it. */
        MemberState stateOf(String shardId) {
            return states.getOrDefault(shardId, unknown);
        }

        /**
         * Whether an object may have to move since {@code previous} (null before the first view): the
         * ring's members changed, or a member stopped being live (a token naming it may be forced away),
         * members never seen among them.
         */
        boolean movesObjectsSince(@Nullable View previous) {
            return previous == null || !ring.members().equals(previous.ring.members()) || !live().equals(previous.live())
                    || unknown.live() != previous.unknown.live();
        }

        private Set<String> live() {
            return states.entrySet().stream().filter(state -> state.getValue().live()).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
        }
    }

    /** A write the loop owes a member's Lease. */
    sealed interface Chore {
        Members.Observation member();
    }

    /** The member expired (or a take failed): take its Lease. */
    record Take(Members.Observation member) implements Chore {
    }

    /** The member is READY and its Lease not yet labelled so. */
    record MarkReady(Members.Observation member) implements Chore {
    }

    /** The member's Lease is orphaned: delete it. */
    record DeleteOrphan(Members.Observation member) implements Chore {
    }

    /** The last write of one kind to one member's Lease: at which version, when, and whether it failed. */
    record Attempt(String resourceVersion, long atNanos, boolean failed) {
    }

    private final Members members;
    private final LeaseTake leases;
    private final ShardingOptions options;
    private final BooleanSupplier leading;
    private final Consumer<View> onMove;
    private final TimeSource time;
    /** By {@link #attemptKey}; used by the thread running {@link #pass} only (the caller of start, then the loop). */
    private final Map<String, Attempt> attempts = new HashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition wake = lock.newCondition();
    private boolean dirty; // guarded by lock
    private volatile boolean stopped;
    private volatile @Nullable View view;
    private @Nullable Thread thread;

    /**
     * @param members what the Lease informer delivered (fed by {@link #handler()})
     * @param leases the writes to member Leases
     * @param leading whether the leader term is valid: no write is made while it is not
     * @param onMove told of each view in which objects may move (on the loop's thread)
     */
    MemberLoop(Members members, LeaseTake leases, ShardingOptions options, BooleanSupplier leading,
            Consumer<View> onMove) {
        this.members = Objects.requireNonNull(members, "members");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.options = Objects.requireNonNull(options, "options");
        this.leading = Objects.requireNonNull(leading, "leading");
        this.onMove = Objects.requireNonNull(onMove, "onMove");
        this.time = options.timeSource();
    }

    /** Feeds {@link Members} from the ring's Lease informer, observing each delivery when it arrives, and wakes the loop. */
    ResourceEventHandler<Lease> handler() {
        return members.handler(time, this::signal);
    }

    /** The ring as last judged; null before {@link #start()}. */
    @Nullable View view() {
        return view;
    }

    /**
     * Judges the members once on the calling thread (the first view), then goes on on a thread of
     * its own; does nothing once closed. Call it once the Lease informer's {@link #handler()} has
     * synced: nothing is judged before, and this moment starts the clock after which a member this
     * term never saw a Lease of counts as DEAD ({@link Members#synced}).
     */
    synchronized void start() {
        if (stopped) {
            return;
        }
        if (thread != null) {
            throw new IllegalStateException("the member loop of ring " + options.ring() + " runs already");
        }
        members.synced(time.nanoTime());
        long next = pass();
        Thread loop = options.threadFactory().newThread(() -> run(next));
        loop.setName("assigner-" + options.ring() + "-members");
        thread = loop;
        loop.start();
    }

    /** Stops the loop; a write in flight may still finish (it is a compare-and-swap, made within the term). */
    @Override
    public void close() {
        stopped = true;
        signal();
        Thread loop;
        synchronized (this) {
            loop = thread;
        }
        if (loop != null && loop != Thread.currentThread()) {
            loop.interrupt();
            try {
                loop.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void signal() {
        lock.lock();
        try {
            dirty = true;
            wake.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void run(long firstWake) {
        long next = firstWake;
        try {
            while (!stopped) {
                lock.lock();
                try {
                    while (!dirty && !stopped && time.nanosUntil(next) > 0) {
                        time.awaitUntil(wake, next);
                    }
                    dirty = false;
                } finally {
                    lock.unlock();
                }
                if (stopped) {
                    return;
                }
                try {
                    next = pass();
                } catch (RuntimeException e) {
                    log.error("ring {}: judging the members failed; trying again in {}", options.ring(),
                            options.retryPeriod(), e);
                    next = time.deadlineAfter(options.retryPeriod());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    /** One judgement: publish the view, do the writes that are due; returns when to judge again at the latest. */
    long pass() {
        long now = time.nanoTime();
        SortedMap<String, Members.Observation> observed = members.observations();
        attempts.keySet().removeIf(key -> !observed.containsKey(key.substring(key.indexOf('/') + 1)));
        publish(now);
        boolean postponed = false;
        for (Chore chore : chores(observed, now, options.orphanTtl(), options.retryPeriod(), attempts)) {
            if (stopped || !leading.getAsBoolean()) {
                postponed = true; // the term may become valid again: look again then
                break;
            }
            attempts.put(attemptKey(chore), new Attempt(chore.member().resourceVersion(), now, !write(chore)));
        }
        long next = nextJudgement(now);
        long retry = now + options.retryPeriod().toNanos();
        return postponed && retry - next < 0 ? retry : next;
    }

    private void publish(long now) {
        SortedMap<String, MemberState> states = members.states(now, options.orphanTtl());
        MemberState unknown = members.unknownState(now);
        View previous = view;
        if (previous != null && previous.states().equals(states) && previous.unknown() == unknown) {
            return;
        }
        List<String> ready = states.entrySet().stream().filter(state -> state.getValue().inRing())
                .map(Map.Entry::getKey).toList();
        HashRing ring = previous != null && previous.ring().members().equals(Set.copyOf(ready)) ? previous.ring()
                : HashRing.of(ready, options.virtualNodes());
        View next = new View(ring, states, unknown);
        view = next;
        options.metrics().members(options.ring(), countByState(states));
        if (next.movesObjectsSince(previous)) {
            log.info("ring {}: members {}, ring {}", options.ring(), states, ring.members());
            onMove.accept(next);
        }
    }

    /** Makes one write; false when it failed (neither done nor refused as stale), to be tried again later. */
    private boolean write(Chore chore) {
        Members.Observation member = chore.member();
        LeaseTake.Outcome outcome;
        if (chore instanceof Take) {
            outcome = leases.take(member.lease());
        } else if (chore instanceof MarkReady) {
            outcome = leases.markReady(member.lease());
        } else {
            outcome = leases.deleteOrphan(member.lease());
        }
        if (outcome instanceof LeaseTake.Outcome.Failed) {
            if (chore instanceof Take) {
                members.takeFailed(member.shardId(), member.resourceVersion());
            }
            return false;
        }
        return true;
    }

    private long nextJudgement(long now) {
        OptionalLong next = members.nextChangeAt(now, options.orphanTtl());
        long latest = next.isPresent() ? next.getAsLong() : time.deadlineAfter(options.resyncPeriod().isZero()
                ? Duration.ofHours(1) : options.resyncPeriod());
        for (Attempt attempt : attempts.values()) {
            if (attempt.failed()) {
                long retry = attempt.atNanos() + options.retryPeriod().toNanos();
                latest = retry - latest < 0 ? retry : latest;
            }
        }
        return latest;
    }

    /**
     * The writes due at {@code nowNanos}: a take for each EXPIRED or UNCERTAIN member, a ready label for
     * each READY member whose Lease lacks it, a deletion for each ORPHANED Lease; each unless it was
     * attempted on the same version of the Lease already and did not fail, or failed less than
     * {@code retryPeriod} ago.
     */
    static List<Chore> chores(SortedMap<String, Members.Observation> observed, long nowNanos, Duration orphanTtl,
            Duration retryPeriod, Map<String, Attempt> attempts) {
        List<Chore> due = new ArrayList<>();
        for (Members.Observation member : observed.values()) {
            Chore chore = switch (MemberStates.judge(member, nowNanos, orphanTtl)) {
                case READY -> LeaseTake.READY.equals(stateLabel(member)) ? null : new MarkReady(member);
                case EXPIRED, UNCERTAIN -> new Take(member);
                case ORPHANED -> new DeleteOrphan(member);
                case DEAD -> null;
            };
            if (chore != null && isDue(attempts.get(attemptKey(chore)), member.resourceVersion(), nowNanos,
                    retryPeriod)) {
                due.add(chore);
            }
        }
        return due;
    }

    private static boolean isDue(@Nullable Attempt last, String resourceVersion, long nowNanos, Duration retryPeriod) {
        return last == null || !last.resourceVersion().equals(resourceVersion)
                || last.failed() && nowNanos - last.atNanos() >= retryPeriod.toNanos();
    }

    /** {@code <kind>/<shardId>}: one attempt remembered per kind of write and member. */
    static String attemptKey(Chore chore) {
        return chore.getClass().getSimpleName() + "/" + chore.member().shardId();
    }

    private static @Nullable String stateLabel(Members.Observation member) {
        Map<String, String> labels = member.lease().getMetadata().getLabels();
        return labels == null ? null : labels.get(ShardLabels.STATE_LABEL);
    }

    /** How many members are in each state, every state given. */
    static Map<MemberState, Integer> countByState(Map<String, MemberState> states) {
        Map<MemberState, Integer> counts = new EnumMap<>(MemberState.class);
        for (MemberState state : MemberState.values()) {
            counts.put(state, 0);
        }
        states.values().forEach(state -> counts.merge(state, 1, Integer::sum));
        return counts;
    }
}

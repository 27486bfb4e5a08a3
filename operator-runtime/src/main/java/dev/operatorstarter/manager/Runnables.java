package dev.operatorstarter.manager;

import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runnables of one {@link RunnableGroup}, started in the order added and stopped in reverse:
 * once by the manager ({@link #startOnce}), or, for a term group, in each term of the elector whose
 * {@link LeaderCallbacks} it is.
 *
 * <p>During a term every runnable is given the term, and controllers check its validity before
 * each reconcile. A runnable that fails to start is logged and its error kept for the status; the
 * others still start. Stopping for good ({@link #close}, while this replica still holds its lease)
 * lets work in flight finish within the shutdown timeout, shared by all, and says whether it did.
 * Stopping because the term ended does not wait: another replica may hold the lease already.
 */
final class Runnables implements LeaderCallbacks {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    /** The term outside term groups: always valid, never ends. */
    static final Leadership ALWAYS = new Leadership() {
        private final CountDownLatch never = new CountDownLatch(1);

        @Override
        public boolean isValid() {
            return true;
        }

        @Override
        public void awaitEnd() throws InterruptedException {
            never.await();
        }

        @Override
        public boolean awaitEnd(Duration timeout) throws InterruptedException {
            return never.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        }
    };

    private final RunnableGroup group;
    private final List<ManagedRunnable> runnables = new CopyOnWriteArrayList<>();
    private final Duration shutdownTimeout;
    private final @Nullable Runnable onLostTerm;
    private final TimeSource time;
    private final Object lock = new Object();
    private final Map<String, String> startErrors = new ConcurrentHashMap<>();
    /** Runnables whose last stop said work of theirs still ran; stopped again (re-checked) on each stop; guarded by lock. */
    private final Set<ManagedRunnable> undrained = new LinkedHashSet<>();
    private volatile boolean closed;
    private volatile boolean active;
    private volatile @Nullable Thread starting;
    /** How many runnables, from the first, were started and not stopped since; guarded by lock. */
    private int started;

    /**
     * @param onLostTerm run once when a term ends while the group is open, to end the application;
     *     null to go on (the elector campaigns again)
     */
    Runnables(RunnableGroup group, Duration shutdownTimeout, @Nullable Runnable onLostTerm, TimeSource time) {
        this.group = group;
        this.shutdownTimeout = shutdownTimeout;
        this.onLostTerm = onLostTerm;
        this.time = time;
    }

    /** One set per group; the leader's runs {@code onLostLeadership} (when not null) after a lost term. */
    static Map<RunnableGroup, Runnables> groups(ManagerOptions options, @Nullable Runnable onLostLeadership) {
        Map<RunnableGroup, Runnables> groups = new EnumMap<>(RunnableGroup.class);
        for (RunnableGroup group : RunnableGroup.values()) {
            groups.put(group, new Runnables(group, options.shutdownTimeout(),
                    group == RunnableGroup.LEADER_TERM ? onLostLeadership : null, options.timeSource()));
        }
        return groups;
    }

    RunnableGroup group() {
        return group;
    }

    void add(ManagedRunnable runnable) {
        if (group == RunnableGroup.CACHES) {
            throw new IllegalStateException("the caches group runs the manager's informers only: make "
                    + runnable.name() + "'s informers on Manager.informers()");
        }
        runnables.add(runnable);
    }

    List<ManagedRunnable> runnables() {
        return List.copyOf(runnables);
    }

    boolean isEmpty() {
        return runnables.isEmpty();
    }

    /** True while the runnables should run (in a term, or started outside one) and the group is open. */
    boolean isActive() {
        return active && !closed;
    }

    /** Why {@code runnable}'s last start failed; null when it started (or never tried). */
    @Nullable String startError(ManagedRunnable runnable) {
        return startErrors.get(runnable.name());
    }

    /** Starts every runnable outside a term (the always-valid one). */
    void startOnce() {
        start(ALWAYS);
    }

    private void start(Leadership term) {
        synchronized (lock) {
            starting = Thread.currentThread();
            try {
                if (closed) {
                    return;
                }
                if (!term.isValid()) {
                    // the elector starts a term on a thread of its own, which may run after the term
                    // ended (and after onStoppedLeading): its runnables would wait on a dead gate
                    log.debug("a term of {} ended before its runnables started; starting none", group);
                    return;
                }
                active = true;
                for (ManagedRunnable runnable : runnables) {
                    if (closed || Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    started++;
                    try {
                        runnable.start(term);
                        startErrors.remove(runnable.name());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (RuntimeException e) {
                        startErrors.put(runnable.name(), String.valueOf(e.getMessage()));
                        log.error("{} did not start: {}", runnable.name(), e.getMessage(), e);
                    }
                }
            } finally {
                starting = null;
            }
        }
    }

    /**
     * Stops the started runnables, last started first, letting work in flight finish within
     * {@code drain} in all; true when everything finished and nothing of them runs any more.
     */
    private boolean stopAll(Duration drain) {
        synchronized (lock) {
            active = false;
            long deadline = time.deadlineAfter(drain);
            boolean interrupted = Thread.interrupted(); // a term's end interrupts its thread: drain anyway
            boolean drained = true;
            List<ManagedRunnable> toStop = new ArrayList<>(runnables.subList(0, Math.min(started, runnables.size())));
            Collections.reverse(toStop);
            undrained.stream().filter(runnable -> !toStop.contains(runnable)).forEach(toStop::add);
            started = 0;
            for (ManagedRunnable runnable : toStop) {
                boolean stopped = false;
                try {
                    stopped = runnable.stop(Duration.ofNanos(Math.max(0, time.nanosUntil(deadline))));
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (RuntimeException e) {
                    log.error("{} did not stop cleanly: {}", runnable.name(), e.getMessage(), e);
                }
                if (stopped) {
                    undrained.remove(runnable);
                } else {
                    undrained.add(runnable);
                    drained = false;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return drained;
        }
    }

    /**
     * Stops for good: interrupts a start in progress, then stops the runnables, letting work in
     * flight finish within the shutdown timeout.
     *
     * @return true when everything finished in time and nothing runs any more
     */
    boolean close() {
        return close(shutdownTimeout);
    }

    /** {@link #close()}, letting work in flight finish within {@code drain} instead. */
    boolean close(Duration drain) {
        closed = true;
        Thread current = starting;
        if (current != null && current != Thread.currentThread()) {
            current.interrupt();
        }
        return stopAll(drain);
    }

    /**
     * Starts the runnables and returns; the term's end comes through {@link #onStoppedLeading},
     * which the elector always calls before a later term can start (so an old term never stops a
     * new term's runnables).
     */
    @Override
    public void onStartedLeading(Leadership leadership) {
        start(leadership);
    }

    @Override
    public void onStoppedLeading() {
        if (onLostTerm != null && !closed) {
            closed = true; // no new term may start the runnables while the application closes
            stopAll(Duration.ZERO);
            onLostTerm.run();
        } else {
            stopAll(Duration.ZERO);
        }
    }
}

package dev.operatorstarter.manager;

import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Controllers started and stopped together: at start-up when there is no election, else for each
 * term of an elector whose {@link LeaderCallbacks} the group is. A manager has one group for the
 * leader's controllers and, with sharding, one for the shard's, whose terms are the member Lease's.
 *
 * <p>During a term, every worker checks the term's {@link Leadership#isValid()} immediately before
 * each reconcile and reconciles nothing while it is false (the requests wait, and are dropped when
 * the term's end stops the controllers). {@linkplain #addTermTask Term tasks} (the sharding's
 * assigner) start after the controllers in each term, on the term's thread, and stop before them.
 *
 * <p>Stopping for good ({@link #close}, while this replica still holds and renews the lease)
 * lets reconciles in flight finish for up to the shutdown timeout, shared by all controllers, and
 * says whether they did. Stopping because the term ended does not wait: another replica may lead
 * already, so reconciles still running after one second are interrupted.
 */
final class ControllerGroup implements LeaderCallbacks {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    /** A controller with the resource it reconciles. */
    record Managed(Controller<?> controller, String resource) {
    }

    private final List<Managed> controllers = new CopyOnWriteArrayList<>();
    private final List<LeaderCallbacks> termTasks = new CopyOnWriteArrayList<>();
    private final Duration shutdownTimeout;
    private final @Nullable Runnable onLostLeadership;
    private final TimeSource time;
    private final boolean sharded;
    private final Object lock = new Object();
    private final Map<String, String> startErrors = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile boolean active;
    private volatile @Nullable Thread starting;
    /** Whether the term tasks were started in the current term; guarded by lock. */
    private boolean tasksRunning;

    /**
     * @param onLostLeadership run once when a term ends while the group is open, to end the
     *     application; null to campaign again instead
     * @param sharded whether the group's controllers are a shard's (for {@link ControllerStatus#sharded()})
     */
    ControllerGroup(Duration shutdownTimeout, @Nullable Runnable onLostLeadership, TimeSource time, boolean sharded) {
        this.shutdownTimeout = shutdownTimeout;
        this.onLostLeadership = onLostLeadership;
        this.time = time;
        this.sharded = sharded;
    }

    void add(Controller<?> controller, String resource) {
        controllers.add(new Managed(controller, resource));
    }

    /**
     * Adds {@code task} to what runs in each term: its {@code onStartedLeading} after the
     * controllers started, on the term's thread (it may block until the term ends or it is
     * interrupted); its {@code onStoppedLeading} when the term ends or the group closes, before the
     * controllers stop. A failing task is logged; the others and the controllers go on.
     */
    void addTermTask(LeaderCallbacks task) {
        termTasks.add(task);
    }

    /** True while the controllers should run (leading, or no election) and the group is open. */
    boolean isActive() {
        return active && !closed;
    }

    List<ControllerStatus> status() {
        List<ControllerStatus> all = new ArrayList<>();
        for (Managed managed : controllers) {
            Controller<?> controller = managed.controller();
            all.add(new ControllerStatus(controller.name(), managed.resource(), controller.isRunning(),
                    controller.queueDepth(), startErrors.get(controller.name()), sharded, controller.reconciles(),
                    controller.failedReconciles()));
        }
        return all;
    }

    /**
     * Starts every controller (each waits for its caches); a controller that fails to start is
     * logged and reported, the others still start.
     */
    void startAll() {
        startAll(() -> true, null);
    }

    private void startAll(BooleanSupplier mayReconcile, @Nullable Leadership term) {
        synchronized (lock) {
            starting = Thread.currentThread();
            try {
                if (closed) {
                    return;
                }
                if (term != null && !term.isValid()) {
                    // the elector starts a term on a thread of its own, which may run after the term
                    // ended (and after onStoppedLeading): its controllers would wait on a dead gate
                    log.debug("a leader's term ended before its controllers started; starting none");
                    return;
                }
                active = true;
                for (Managed managed : controllers) {
                    if (!start(managed.controller(), mayReconcile)) {
                        return;
                    }
                }
                if (term != null && !termTasks.isEmpty()) {
                    tasksRunning = true;
                    for (LeaderCallbacks task : termTasks) {
                        if (closed || Thread.currentThread().isInterrupted()) {
                            return;
                        }
                        try {
                            task.onStartedLeading(term);
                        } catch (RuntimeException e) {
                            log.error("a task of the leader's term did not start: {}", e.getMessage(), e);
                        }
                    }
                }
            } finally {
                starting = null;
            }
        }
    }

    /** Starts {@code controller}, recording a failure; false when the start is to end here (closed, interrupted). */
    private boolean start(Controller<?> controller, BooleanSupplier mayReconcile) {
        if (closed || Thread.currentThread().isInterrupted()) {
            return false;
        }
        try {
            controller.start(mayReconcile);
            startErrors.remove(controller.name());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException e) {
            startErrors.put(controller.name(), String.valueOf(e.getMessage()));
            log.error("controller {} did not start: {}", controller.name(), e.getMessage(), e);
        }
        return true;
    }

    /**
     * Stops the term tasks, then every controller, letting reconciles in flight finish within
     * {@code drain} in all; true when they all did and nothing of these controllers runs any more
     * (no reconcile an earlier stop gave up on either).
     */
    private boolean stopAll(Duration drain) {
        synchronized (lock) {
            active = false;
            long deadline = time.deadlineAfter(drain);
            boolean interrupted = Thread.interrupted(); // a term's end interrupts its thread: drain anyway
            stopTasks();
            boolean drained = true;
            for (Managed managed : controllers) {
                try {
                    drained &= managed.controller().stop(Duration.ofNanos(Math.max(0, time.nanosUntil(deadline))));
                } catch (InterruptedException e) {
                    interrupted = true;
                    drained = false;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            return drained && controllers.stream().allMatch(managed -> managed.controller().reconcilesInFlight() == 0);
        }
    }

    /** Ends the term tasks started in this term, last started first; guarded by lock. */
    private void stopTasks() {
        if (!tasksRunning) {
            return;
        }
        tasksRunning = false;
        List<LeaderCallbacks> tasks = new ArrayList<>(termTasks);
        Collections.reverse(tasks);
        for (LeaderCallbacks task : tasks) {
            try {
                task.onStoppedLeading();
            } catch (RuntimeException e) {
                log.error("a task of the leader's term did not stop cleanly: {}", e.getMessage(), e);
            }
        }
    }

    /**
     * Stops for good: interrupts a start in progress, then stops the term tasks and every
     * controller, letting reconciles in flight finish within the shutdown timeout.
     *
     * @return true when every reconcile finished in time and none runs any more
     */
    boolean close() {
        return close(shutdownTimeout);
    }

    /** {@link #close()}, letting reconciles in flight finish within {@code drain} instead. */
    boolean close(Duration drain) {
        closed = true;
        Thread current = starting;
        if (current != null && current != Thread.currentThread()) {
            current.interrupt();
        }
        return stopAll(drain);
    }

    /**
     * Starts the controllers, then the term tasks, and returns; the term's end is handled by
     * {@link #onStoppedLeading}, which the elector always calls before a later term can start (so an
     * old term never stops a new term's controllers). Until then their workers check {@link Leadership#isValid()}
     * immediately before each reconcile, so no reconcile starts once the term can no longer be
     * sure of its lease (the renew deadline after the last successful renewal), however late the
     * elector's thread calls {@code onStoppedLeading}.
     */
    @Override
    public void onStartedLeading(Leadership leadership) {
        startAll(leadership::isValid, leadership);
    }

    @Override
    public void onStoppedLeading() {
        if (onLostLeadership != null && !closed) {
            closed = true; // no new term may start the controllers while the application closes
            stopAll(Duration.ZERO);
            onLostLeadership.run();
        } else {
            stopAll(Duration.ZERO);
        }
    }
}

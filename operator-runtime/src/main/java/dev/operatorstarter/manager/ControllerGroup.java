package dev.operatorstarter.manager;

import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The manager's controllers, started and stopped together: at start-up when there is no leader
 * election, else for each term (it is the elector's {@link LeaderCallbacks}).
 *
 * <p>During a term, every worker checks the term's {@link Leadership#isValid()} immediately before
 * each reconcile and reconciles nothing while it is false (the requests wait, and are dropped when
 * the term's end stops the controllers).
 *
 * <p>Stopping for good ({@link #close()}, while this replica still holds and renews the lease)
 * lets reconciles in flight finish for up to the shutdown timeout, shared by all controllers.
 * Stopping because the term ended does not wait: another replica may lead already, so reconciles
 * still running after one second are interrupted.
 */
final class ControllerGroup implements LeaderCallbacks {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    /** A controller with the resource it reconciles. */
    record Managed(Controller<?> controller, String resource) {
    }

    private final List<Managed> controllers = new CopyOnWriteArrayList<>();
    private final Duration shutdownTimeout;
    private final @Nullable Runnable onLostLeadership;
    private final TimeSource time;
    private final Object lock = new Object();
    private final Map<String, String> startErrors = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private volatile boolean active;
    private volatile @Nullable Thread starting;

    /**
     * @param onLostLeadership run once when a term ends while the group is open, to end the
     *     application; null to campaign again instead
     */
    ControllerGroup(Duration shutdownTimeout, @Nullable Runnable onLostLeadership, TimeSource time) {
        this.shutdownTimeout = shutdownTimeout;
        this.onLostLeadership = onLostLeadership;
        this.time = time;
    }

    void add(Controller<?> controller, String resource) {
        controllers.add(new Managed(controller, resource));
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
                    controller.queueDepth(), startErrors.get(controller.name())));
        }
        return all;
    }

    /**
     * Starts every controller (each waits for its caches); a controller that fails to start is
     * logged and reported, the others still start.
     */
    void startAll() {
        startAll(() -> true);
    }

    private void startAll(BooleanSupplier mayReconcile) {
        synchronized (lock) {
            starting = Thread.currentThread();
            try {
                if (closed) {
                    return;
                }
                active = true;
                for (Managed managed : controllers) {
                    Controller<?> controller = managed.controller();
                    if (closed || Thread.currentThread().isInterrupted()) {
                        return;
                    }
                    try {
                        controller.start(mayReconcile);
                        startErrors.remove(controller.name());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (RuntimeException e) {
                        startErrors.put(controller.name(), String.valueOf(e.getMessage()));
                        log.error("controller {} did not start: {}", controller.name(), e.getMessage(), e);
                    }
                }
            } finally {
                starting = null;
            }
        }
    }

    /** Stops every controller, letting reconciles in flight finish within {@code drain} in all. */
    private void stopAll(Duration drain) {
        synchronized (lock) {
            active = false;
            long deadline = time.deadlineAfter(drain);
            boolean interrupted = Thread.interrupted(); // a term's end interrupts its thread: drain anyway
            for (Managed managed : controllers) {
                try {
                    managed.controller().stop(Duration.ofNanos(time.nanosUntil(deadline)));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops for good: interrupts a start in progress, then stops every controller, letting
     * reconciles in flight finish within the shutdown timeout.
     */
    void close() {
        closed = true;
        Thread current = starting;
        if (current != null && current != Thread.currentThread()) {
            current.interrupt();
        }
        stopAll(shutdownTimeout);
    }

    /**
     * Starts the controllers and returns; the term's end is handled by {@link #onStoppedLeading},
     * which the elector always calls before a later term can start (so an old term never stops
     * a new term's controllers). Until then their workers check {@link Leadership#isValid()}
     * immediately before each reconcile, so no reconcile starts once the term can no longer be
     * sure of its lease (the renew deadline after the last successful renewal), however late the
     * elector's thread calls {@code onStoppedLeading}.
     */
    @Override
    public void onStartedLeading(Leadership leadership) {
        startAll(leadership::isValid);
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

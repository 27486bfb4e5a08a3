package dev.operatorstarter.controller;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of a controller, from a start to its stop: the run's own work queue, handler
 * registrations, workers, reconcile-timeout timer and gate. A worker that outlives its run's
 * stop only ever sees its own run's state, never a later run's.
 */
final class ControllerRun {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);

    private final String name;
    private final RateLimitingQueue<ReconcileRequest> queue;
    private final BooleanSupplier mayReconcile;
    private final @Nullable ScheduledExecutorService timeouts;
    private final List<HandlerRegistration> registrations = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    /** Set when the run stops: workers then drop what is still queued instead of reconciling it. */
    private volatile boolean stopping;

    ControllerRun(String name, RateLimitingQueue<ReconcileRequest> queue, BooleanSupplier mayReconcile,
            @Nullable ScheduledExecutorService timeouts) {
        this.name = name;
        this.queue = queue;
        this.mayReconcile = mayReconcile;
        this.timeouts = timeouts;
    }

    /** The run's timer for reconcile timeouts: one thread from {@code options}' factory; null without a timeout. */
    static @Nullable ScheduledExecutorService timeouts(ControllerOptions options) {
        if (options.reconcileTimeout().isZero()) {
            return null;
        }
        return Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = options.threadFactory().newThread(task);
            thread.setName("controller-" + options.name() + "-timeouts");
            thread.setDaemon(true);
            return thread;
        });
    }

    RateLimitingQueue<ReconcileRequest> queue() {
        return queue;
    }

    @Nullable ScheduledExecutorService timeouts() {
        return timeouts;
    }

    boolean isStopping() {
        return stopping;
    }

    void registered(HandlerRegistration registration) {
        registrations.add(registration);
    }

    List<HandlerRegistration> registrations() {
        return registrations;
    }

    void started(Thread worker) {
        workers.add(worker);
    }

    /** Whether the gate lets a reconcile start now; a gate that throws counts as closed. */
    boolean gateOpen() {
        try {
            return mayReconcile.getAsBoolean();
        } catch (RuntimeException e) {
            log.warn("{}: the reconcile gate failed, taken as closed: {}", name, e.toString(), e);
            return false;
        }
    }

    /**
     * Stops taking work, drops what is queued, lets reconciles in flight finish for up to
     * {@code drain} (at least a second for the workers to notice), then interrupts the workers
     * still running. Returns true when everything finished in time.
     */
    boolean stop(Duration drain, TimeSource time) throws InterruptedException {
        stopping = true;
        registrations.forEach(HandlerRegistration::remove);
        registrations.clear();
        boolean drained = queue.shutDownWithDrain(drain);
        long deadline = time.deadlineAfter(drain.compareTo(Duration.ofSeconds(1)) > 0 ? drain : Duration.ofSeconds(1));
        for (Thread worker : workers) {
            long left = time.nanosUntil(deadline);
            if (left > 0) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            if (worker.isAlive()) {
                worker.interrupt();
                drained = false;
            }
        }
        workers.clear();
        if (timeouts != null) {
            timeouts.shutdownNow();
        }
        return drained;
    }
}

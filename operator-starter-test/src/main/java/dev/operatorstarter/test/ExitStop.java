package dev.operatorstarter.test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shared cluster's stop at JVM exit, deferred while {@link ClusterHold}s are open. The JVM runs
 * its shutdown hooks at the same time, so a cluster stopped by a hook of its own would stop under
 * an application that a Spring hook is still closing; instead the cluster's hook waits for the
 * holds, and whoever closes the last one during the exit stops the cluster on its own thread, at
 * the end of the application's close. The hook waits at most {@code limit} for the holds, then
 * stops the cluster anyway; it returns only once the cluster has stopped, whoever stopped it (the
 * JVM halts when its hooks return).
 *
 * <p>Thread-safe. {@code stop} runs at most once.
 */
final class ExitStop {

    private static final Logger log = LoggerFactory.getLogger(ExitStop.class);

    private enum State {
        SERVING, STOPPING, STOPPED
    }

    private final Runnable stop;
    private final BooleanSupplier jvmExiting;

    // All guarded by this.
    private int holds;
    private boolean exiting;
    private State state = State.SERVING;

    /**
     * @param stop stops the cluster; called at most once, on the thread that ends the wait
     * @param jvmExiting whether the JVM runs its shutdown hooks ({@link #jvmExiting()} outside
     *     tests): asked when the last hold closes, which may be before this stop's own hook has
     *     started
     */
    ExitStop(Runnable stop, BooleanSupplier jvmExiting) {
        this.stop = stop;
        this.jvmExiting = jvmExiting;
    }

    /** Whether this JVM runs its shutdown hooks: from their start on, it refuses to register one. */
    static boolean jvmExiting() {
        Thread probe = new Thread(() -> { }, "operator-starter-test-exit-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException shutdownInProgress) {
            return true;
        }
    }

    /** A new open hold. */
    synchronized ClusterHold hold() {
        holds++;
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                release();
            }
        };
    }

    private void release() {
        synchronized (this) {
            holds--;
            notifyAll();
            if (holds > 0 || state != State.SERVING || !exiting && !jvmExiting.getAsBoolean()) {
                return;
            }
            state = State.STOPPING;
        }
        runStop();
    }

    /**
     * The shutdown hook's work: waits until every hold is closed, at most {@code limit}, and stops
     * the cluster unless the last hold's closer does; returns once the cluster has stopped (or after
     * another {@code limit} while someone else stops it).
     */
    void onExit(Duration limit) {
        try {
            synchronized (this) {
                exiting = true;
                long deadline = System.nanoTime() + limit.toNanos();
                if (holds > 0) {
                    log.debug("Waiting for {} user(s) of the shared cluster to stop before stopping it", holds);
                }
                while (holds > 0 && state == State.SERVING && deadline - System.nanoTime() > 0) {
                    TimeUnit.NANOSECONDS.timedWait(this, deadline - System.nanoTime());
                }
                if (state == State.SERVING) {
                    if (holds > 0) {
                        log.warn("{} user(s) of the shared cluster did not stop within {}; stopping it anyway", holds,
                                limit);
                    }
                    state = State.STOPPING;
                } else {
                    long stopDeadline = System.nanoTime() + limit.toNanos();
                    while (state == State.STOPPING && stopDeadline - System.nanoTime() > 0) {
                        TimeUnit.NANOSECONDS.timedWait(this, stopDeadline - System.nanoTime());
                    }
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            synchronized (this) {
                if (state != State.SERVING) {
                    return;
                }
                state = State.STOPPING;
            }
        }
        runStop();
    }

    private void runStop() {
        try {
            stop.run();
        } finally {
            synchronized (this) {
                state = State.STOPPED;
                notifyAll();
            }
        }
    }
}

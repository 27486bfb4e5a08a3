package dev.operatorstarter.controller;

import dev.operatorstarter.workqueue.RateLimitingQueue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One worker of one run of a controller: takes requests from the run's queue until it shuts
 * down and has nothing more to hand out, and reconciles each (controller-runtime's
 * {@code processNextWorkItem}). The policies are elsewhere and tested without threads: whether a
 * request may run now ({@link ReadYourWrites}, the cross-run hold, the gate), what the queue does
 * afterwards ({@link QueueAction#after}), the timeout ({@link ReconcileTimeout}).
 *
 * <p>Nothing ends the loop but the queue's shutdown: not an exception or {@link Error} from the
 * reconcile, not a stray interrupt (an interrupt a reconcile leaves set is cleared after it).
 */
final class Worker implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    static final Duration STALE_RETRY = Duration.ofMillis(50);
    static final Duration HELD_RETRY = Duration.ofMillis(50);
    static final Duration GATE_RETRY = Duration.ofMillis(100);

    private final Controller<?> controller;
    private final ControllerRun run;
    private final String name;
    private final ControllerOptions options;

    Worker(Controller<?> controller, ControllerRun run) {
        this.controller = controller;
        this.run = run;
        this.name = controller.name();
        this.options = controller.options();
    }

    @Override
    public void run() {
        RateLimitingQueue<ReconcileRequest> queue = run.queue();
        while (true) {
            Optional<ReconcileRequest> next;
            try {
                next = queue.get();
            } catch (InterruptedException e) {
                if (queue.isShuttingDown()) {
                    return; // stop() interrupts only workers that outlived the drain
                }
                continue; // a stray interrupt (not ours to act on) must not end the worker
            }
            if (next.isEmpty()) {
                return;
            }
            ReconcileRequest request = next.get();
            try {
                if (!run.isStopping()) {
                    process(request);
                }
            } finally {
                Thread.interrupted(); // an interrupt a reconcile left set belongs to that reconcile
                queue.done(request);
            }
        }
    }

    private void process(ReconcileRequest request) {
        RateLimitingQueue<ReconcileRequest> queue = run.queue();
        switch (controller.readYourWrites().check(request, controller.cached(request))) {
            case WAIT -> {
                queue.addAfter(request, STALE_RETRY); // the cache has not seen our last write yet
                return;
            }
            case OVERDUE -> log.warn("{}: the cache still lags this controller's last write to {} after {}; "
                    + "reconciling anyway", name, request, options.readYourWritesTimeout());
            case FRESH -> {
            }
        }
        if (!controller.hold(request)) {
            log.debug("{}: {} is still being reconciled by a worker of an earlier run; trying again in {}", name,
                    request, HELD_RETRY);
            queue.addAfter(request, HELD_RETRY);
            return;
        }
        try {
            if (!run.gateOpen()) {
                log.debug("{}: not reconciling {} now (the gate is closed); trying again in {}", name, request,
                        GATE_RETRY);
                queue.addAfter(request, GATE_RETRY);
                return;
            }
            reconcile(request);
        } finally {
            controller.release(request);
        }
    }

    private void reconcile(ReconcileRequest request) {
        MDC.put("controller", name);
        MDC.put("namespace", request.namespace());
        MDC.put("name", request.name());
        MDC.put("reconcileID", reconcileId());
        ControllerMetrics metrics = options.metrics();
        metrics.activeWorkers(name, controller.activeWorkers(1));
        long started = options.timeSource().nanoTime();
        @Nullable ReconcileResult result = null;
        @Nullable Throwable thrown = null;
        ReconcileTimeout timeout = ReconcileTimeout.arm(run.timeouts(), options.reconcileTimeout());
        ObservationRegistry observations = options.observationRegistry();
        @Nullable Observation observation = observations.isNoop() ? null
                : ReconcileObservation.start(observations, name, request);
        try (Observation.Scope scope = observation == null ? null : observation.openScope()) {
            result = controller.handler().reconcile(request);
        } catch (Throwable e) {
            thrown = e;
        } finally {
            timeout.disarm();
        }
        if (thrown == null && timeout.expired()) {
            thrown = new TimeoutException("reconcile took longer than " + options.reconcileTimeout());
        }
        QueueAction action = QueueAction.after(result, thrown);
        try {
            apply(action, request, thrown);
        } finally {
            if (observation != null) {
                ReconcileObservation.stop(observation, action.result(), thrown);
            }
            metrics.reconciled(name, action.result(), options.timeSource().since(started));
            controller.finished(thrown != null);
            metrics.activeWorkers(name, controller.activeWorkers(-1));
            MDC.remove("controller");
            MDC.remove("namespace");
            MDC.remove("name");
            MDC.remove("reconcileID");
        }
    }

    /**
     * A random version-4 UUID for the logs, from {@link ThreadLocalRandom}: it only tells reconciles
     * apart, while {@link UUID#randomUUID()}'s {@code SecureRandom} takes about 20 ms to set up on
     * its first call in a JVM (on the benchmarks' machine), which delayed a started controller's
     * first reconcile by that much, and synchronizes every call.
     */
    static String reconcileId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & ~(0xC0L << 56)) | (0x80L << 56); // the IETF variant
        return new UUID(high, low).toString();
    }

    private void apply(QueueAction action, ReconcileRequest request, @Nullable Throwable thrown) {
        RateLimitingQueue<ReconcileRequest> queue = run.queue();
        switch (action.step()) {
            case FORGET -> queue.forget(request);
            case FORGET_AND_ADD_AFTER -> {
                queue.forget(request);
                queue.addAfter(request, action.delay());
            }
            case ADD_RATE_LIMITED -> queue.addRateLimited(request);
        }
        ControllerMetrics metrics = options.metrics();
        switch (action.failure()) {
            case NONE -> {
            }
            case TERMINAL -> {
                metrics.terminalError(name);
                metrics.error(name); // controller-runtime counts terminal errors among all errors too
                TerminalException terminal = QueueAction.terminalIn(thrown);
                log.error("{}: reconcile of {} failed for good (not retried): {}", name, request,
                        terminal == null ? null : terminal.getMessage(), thrown);
            }
            case ERROR -> {
                metrics.error(name);
                log.warn("{}: reconcile of {} failed (retry {}): {}", name, request, queue.numRequeues(request),
                        String.valueOf(thrown), thrown);
            }
            case PANIC -> {
                metrics.panic(name);
                metrics.error(name);
                log.error("{}: reconcile of {} threw {}; the worker goes on", name, request, String.valueOf(thrown),
                        thrown);
            }
        }
    }
}

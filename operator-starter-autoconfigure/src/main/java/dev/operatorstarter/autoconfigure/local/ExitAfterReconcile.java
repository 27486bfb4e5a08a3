package dev.operatorstarter.autoconfigure.local;

import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.Manager;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

/**
 * Ends a local run once the operator has shown that it works: when every controller has finished
 * one reconcile without failing and every {@link LocalRunCheck} bean passes, the application is
 * closed and the process exits with status 0; when the deadline passes first, or the operator runs
 * no controller, it exits with status 1 and the log names each controller still waiting and what
 * it is doing, and each check that has not passed. A smoke check for a build,
 * switched on by {@value #PROPERTY}; the deadline, {@value #DEADLINE_PROPERTY}, counts from the
 * moment the application is ready.
 *
 * <p>The check runs on a thread that is not a daemon, and it closes the application before it ends
 * the process: a launcher that waits for an application's threads before it tears down (Maven's
 * {@code exec:java}, which the README's first command uses) keeps waiting until the exit, instead of
 * unloading classes under a context that is still closing. When the application is closed by
 * anything else, the check stops and the process is left to end as it would.
 */
final class ExitAfterReconcile implements ApplicationListener<ApplicationEvent> {

    /** When true, the run ends after the first reconcile of every controller; default false. */
    static final String PROPERTY = "operator.local.exit-after-reconcile";

    /** How long the run may wait for those reconciles, from the moment the application is ready; default 3 minutes. */
    static final String DEADLINE_PROPERTY = "operator.local.exit-deadline";

    /** Five minutes: on a fresh machine the local nodes' binaries (kube-scheduler, KWOK) build meanwhile. */
    static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);

    private static final Logger log = LoggerFactory.getLogger(ExitAfterReconcile.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Supplier<Manager> manager;
    private final Supplier<List<LocalRunCheck>> runChecks;
    private final Duration deadline;
    private final IntConsumer exit;
    private final AtomicBoolean exiting = new AtomicBoolean();
    private volatile @Nullable ScheduledExecutorService poller;

    /**
     * @param manager the operator's manager, looked up once the application is ready
     * @param checks the application's further conditions, looked up once the application is ready
     * @param exit ends the process with the status it is given ({@code System::exit} outside tests)
     */
    ExitAfterReconcile(Supplier<Manager> manager, Supplier<List<LocalRunCheck>> checks, Duration deadline,
            IntConsumer exit) {
        if (deadline.isNegative() || deadline.isZero()) {
            throw new IllegalArgumentException(DEADLINE_PROPERTY + " must be positive, was " + deadline);
        }
        this.manager = manager;
        this.runChecks = checks;
        this.deadline = deadline;
        this.exit = exit;
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof ApplicationReadyEvent ready) {
            start(ready.getApplicationContext());
        } else if (event instanceof ContextClosedEvent && !exiting.get()) {
            ScheduledExecutorService running = poller;
            if (running != null) {
                running.shutdownNow(); // closed by someone else: nothing to decide any more
            }
        }
    }

    private void start(ConfigurableApplicationContext context) {
        Manager operator = manager.get();
        List<LocalRunCheck> conditions = List.copyOf(runChecks.get());
        long until = System.nanoTime() + deadline.toNanos();
        ScheduledExecutorService checks = Executors.newSingleThreadScheduledExecutor(
                runnable -> new Thread(runnable, "local-exit-after-reconcile"));
        poller = checks;
        log.info("{}=true: the run ends once every controller has reconciled without failing{}, or fails after {}",
                PROPERTY, conditions.isEmpty() ? "" : " and " + describe(conditions), deadline);
        checks.scheduleWithFixedDelay(() -> {
            List<ControllerStatus> controllers = operator.controllers();
            List<ControllerStatus> waiting = controllers.stream()
                    .filter(controller -> controller.reconciles() - controller.failedReconciles() < 1).toList();
            List<LocalRunCheck> unmet = waiting.isEmpty()
                    ? conditions.stream().filter(check -> !check.passed()).toList() : conditions;
            boolean late = System.nanoTime() - until >= 0;
            if (controllers.isEmpty() || !waiting.isEmpty() && late) {
                log.error("No successful reconcile within {} ({}): {}", deadline, DEADLINE_PROPERTY,
                        controllers.isEmpty() ? "the operator runs no controller (no @Reconciler bean?)"
                                : waiting.stream().map(ExitAfterReconcile::describe).collect(Collectors.joining("; ")));
                end(context, checks, 1);
            } else if (waiting.isEmpty() && !unmet.isEmpty() && late) {
                log.error("Every controller reconciled, but not {} within {} ({})", describe(unmet), deadline,
                        DEADLINE_PROPERTY);
                end(context, checks, 1);
            } else if (waiting.isEmpty() && unmet.isEmpty()) {
                log.info("Every controller reconciled ({}){}; stopping as {} asks", controllers.stream()
                        .map(controller -> controller.name() + ": " + controller.reconciles() + " reconciles, "
                                + controller.failedReconciles() + " failed")
                        .collect(Collectors.joining("; ")),
                        conditions.isEmpty() ? "" : ", and " + describe(conditions) + ": done", PROPERTY);
                end(context, checks, 0);
            }
        }, 0, POLL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes the application on this thread, then ends the process with {@code status}. */
    private void end(ConfigurableApplicationContext context, ScheduledExecutorService checks, int status) {
        exiting.set(true);
        checks.shutdown();
        exit.accept(SpringApplication.exit(context, () -> status));
    }

    private static String describe(List<LocalRunCheck> checks) {
        return checks.stream().map(LocalRunCheck::description).collect(Collectors.joining(", "));
    }

    /** What a controller that has not reconciled is doing, for the failure's message. */
    static String describe(ControllerStatus controller) {
        String state = controller.startError() != null ? "did not start: " + controller.startError()
                : !controller.running() ? "not running (not the leader yet?)"
                : controller.reconciles() == 0 ? "running, " + controller.queueDepth() + " queued, no reconcile finished"
                : "running, all " + controller.reconciles() + " reconciles failed (see the log above)";
        return controller.name() + " (" + controller.resource() + ") " + state;
    }
}

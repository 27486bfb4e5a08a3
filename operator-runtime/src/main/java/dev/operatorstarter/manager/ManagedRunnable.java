package dev.operatorstarter.manager;

import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import java.time.Duration;
import java.util.Objects;

/**
 * Something the {@link Manager} starts and stops with one of its {@link RunnableGroup}s: a
 * controller, the sharding's assigner, a webhook server. Added with {@link Manager#add}.
 *
 * <p>Threading: the manager calls {@link #start} and {@link #stop} from one thread at a time, never
 * both at once, and alternately: {@code stop} follows each {@code start}, also one that threw. In a
 * term group both run on the elector's thread; they must not block for long (a term's end waits
 * for them).
 */
public interface ManagedRunnable {

    /**
     * {@code controller} as a runnable: started with the term's validity as its gate, stopped with
     * a drain; its state is in {@link Manager#controllers()}.
     */
    static ManagedRunnable of(Controller<?> controller) {
        return new ManagedController(Objects.requireNonNull(controller, "controller"));
    }

    /**
     * {@code callbacks} as a runnable of a term group (the sharding's assigner is one): started with
     * the term ({@code onStartedLeading}), stopped at its end ({@code onStoppedLeading}), which
     * waits for nothing; outside a term group, its term is always valid.
     */
    static ManagedRunnable of(String name, LeaderCallbacks callbacks) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(callbacks, "callbacks");
        return new ManagedRunnable() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(Leadership term) {
                callbacks.onStartedLeading(term);
            }

            @Override
            public boolean stop(Duration drain) {
                callbacks.onStoppedLeading();
                return true;
            }
        };
    }

    /** A name for logs and status. */
    String name();

    /**
     * Starts, and returns once started (a controller: once its caches synced and its workers run).
     * Work that only the term's holder may do checks {@code term}'s {@link Leadership#isValid()}
     * immediately before each step; outside a term group the term is always valid.
     *
     * @throws InterruptedException when interrupted while starting (the manager closes, or the term ended)
     * @throws RuntimeException when it cannot start: the manager logs it, records it in the status,
     *     and starts the group's other runnables
     */
    void start(Leadership term) throws InterruptedException;

    /**
     * Stops, letting work in flight finish for up to {@code drain}.
     *
     * @return true when nothing of it runs any more (everything finished in time)
     * @throws InterruptedException when interrupted while waiting
     */
    boolean stop(Duration drain) throws InterruptedException;
}

package dev.operatorstarter.manager;

import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.leaderelection.Leadership;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** A controller as a {@link ManagedRunnable}: gated by the term, drained when it stops. */
record ManagedController(Controller<?> controller) implements ManagedRunnable {

    @Override
    public String name() {
        return controller.name();
    }

    @Override
    public void start(Leadership term) throws InterruptedException {
        controller.start(term::isValid);
    }

    /** True when the workers finished in time and no reconcile an earlier stop gave up on still runs. */
    @Override
    public boolean stop(Duration drain) throws InterruptedException {
        return controller.stop(drain) && controller.reconcilesInFlight() == 0;
    }

    /** The status of every controller in {@code groups}, in their order. */
    static List<ControllerStatus> statuses(Collection<Runnables> groups) {
        List<ControllerStatus> all = new ArrayList<>();
        for (Runnables group : groups) {
            for (ManagedRunnable runnable : group.runnables()) {
                if (runnable instanceof ManagedController controller) {
                    all.add(controller.status(group));
                }
            }
        }
        return all;
    }

    ControllerStatus status(Runnables runnables) {
        return new ControllerStatus(controller.name(), controller.type().groupVersionResource().groupResource(),
                controller.isRunning(), controller.queueDepth(), runnables.startError(this),
                runnables.group() == RunnableGroup.MEMBER_TERM, controller.reconciles(), controller.failedReconciles(),
                runnables.group());
    }
}

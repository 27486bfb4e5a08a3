package dev.operatorstarter.autoconfigure.wiring;

import org.springframework.context.SmartLifecycle;

/**
 * Begins the {@link PermissionCheck} as the context starts, before the web server
 * ({@code DEFAULT_PHASE - 2048}) and the webhook server ({@code DEFAULT_PHASE - 1536}): its round
 * trips to the API server then overlap their start, and {@link OperatorLifecycle} waits for its
 * result before any informer starts, as before. Nothing runs during the refresh, so a training run
 * that stops on refresh ({@code -Dspring.context.exit=onRefresh}) still connects to nothing.
 */
final class PermissionCheckStart implements SmartLifecycle {

    /** Before the web server's start. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2560;

    private final PermissionCheck check;
    private volatile boolean running;

    PermissionCheckStart(PermissionCheck check) {
        this.check = check;
    }

    @Override
    public void start() {
        running = true;
        check.begin();
    }

    @Override
    public void stop() {
        running = false;
        check.cancel();
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.manager.Manager;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the operator's {@link Manager} with the application context: its start (informers →
 * caches → leadership → controllers) when the context starts, its close (in reverse) when it
 * stops. With {@code operator.informers.wait-for-sync-on-startup=false} the wait for the caches
 * moves to a background thread and start-up goes on.
 *
 * <p>Phase {@link #PHASE} puts it after the web server (health and metrics answer while caches
 * sync) and stops it before the web server's graceful shutdown. Not pauseable: informers cannot
 * be restarted, so a paused test context keeps them running.
 */
final class OperatorLifecycle implements SmartLifecycle {

    /** After the web server starts ({@code DEFAULT_PHASE - 2048}), before its graceful shutdown ends. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private final Manager manager;
    private final boolean waitForSync;
    private final @Nullable PermissionCheck permissionCheck;
    private volatile boolean running;

    OperatorLifecycle(Manager manager, OperatorProperties.Informers properties, @Nullable PermissionCheck permissionCheck) {
        this.manager = manager;
        this.waitForSync = properties.waitForSyncOnStartup();
        this.permissionCheck = permissionCheck;
    }

    /**
     * @throws dev.operatorstarter.cache.InformerSyncException when the caches do not sync in time
     *     (explained by the failure analyzer)
     * @throws dev.operatorstarter.autoconfigure.MissingPermissionsException when the API server
     *     does not allow something the operator needs, before any informer starts
     * @throws dev.operatorstarter.autoconfigure.ApiServerUnreachableException when the API server
     *     does not answer the permission check in time, or refuses the credentials
     */
    @Override
    public void start() {
        if (running) {
            return;
        }
        if (waitForSync && permissionCheck != null) {
            permissionCheck.run(); // before running: a failed check leaves nothing to stop
        }
        running = true;
        if (!waitForSync) {
            manager.startInBackground();
            return;
        }
        try {
            manager.start();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the informer caches", e);
        }
    }

    @Override
    public void stop() {
        if (running) {
            running = false;
            manager.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    @Override
    public boolean isPauseable() {
        return false;
    }

    /**
     * What ends a replica that must not go on: liveness BROKEN (a probe restarts the pod), and the
     * context closed on a thread of its own ({@code name}), as controller-runtime exits.
     */
    static Runnable shutdown(ConfigurableApplicationContext context, String name) {
        return () -> {
            AvailabilityChangeEvent.publish(context, LivenessState.BROKEN);
            Thread closer = new Thread(context::close, name);
            closer.start();
        };
    }
}

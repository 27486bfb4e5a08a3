package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.leaderelection.LeaderElector;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the operator in Kubernetes order: start the informers → wait for their caches → campaign
 * for leadership (or, without election, go on) → start the controllers. Stops in reverse: the
 * controllers stop taking work and finish what is in flight (up to the shutdown timeout), the
 * lease is released, the informers stop.
 *
 * <p>Phase {@link #PHASE} puts it after the web server (health and metrics answer while caches
 * sync) and stops it before the web server's graceful shutdown. Not pauseable: informers cannot
 * be restarted, so a paused test context keeps them running.
 */
final class OperatorLifecycle implements SmartLifecycle {

    /** After the web server starts ({@code DEFAULT_PHASE - 2048}), before its graceful shutdown ends. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

    private static final Logger log = LoggerFactory.getLogger(OperatorLifecycle.class);

    private final SharedInformerFactory informers;
    private final ControllerManager controllers;
    private final @Nullable LeaderElector elector;
    private final @Nullable EventBroadcaster events;
    private final OperatorProperties.Informers properties;
    private final Object lock = new Object();
    private volatile boolean running;
    private boolean stopped;
    private @Nullable Thread startup;

    OperatorLifecycle(SharedInformerFactory informers, ControllerManager controllers, @Nullable LeaderElector elector,
            @Nullable EventBroadcaster events, OperatorProperties.Informers properties) {
        this.informers = informers;
        this.controllers = controllers;
        this.elector = elector;
        this.events = events;
        this.properties = properties;
    }

    @Override
    public void start() {
        synchronized (lock) {
            if (running) {
                return;
            }
            if (stopped) {
                throw new IllegalStateException("the operator was stopped and cannot start again (informers cannot "
                        + "be restarted): create a new application context");
            }
            running = true;
            if (events != null) {
                events.start();
            }
            informers.start();
            if (properties.waitForSyncOnStartup()) {
                awaitSync();
                begin();
            } else {
                startup = new Thread(this::syncThenBegin, "operator-startup");
                startup.setDaemon(true);
                startup.start();
            }
        }
    }

    /** Blocks until every informer synced; a timeout fails start-up with a {@link CacheSyncException}. */
    private void awaitSync() {
        Duration timeout = properties.cacheSyncTimeout();
        try {
            informers.waitForCacheSync(timeout);
            log.info("{} informer caches synced", informers.informers().size());
        } catch (InformerSyncException e) {
            throw new CacheSyncException(timeout, CacheSyncException.unsynced(informers.informers()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the informer caches", e);
        }
    }

    /** Without blocking start-up: waits (logging each timeout, the informers keep retrying), then begins. */
    private void syncThenBegin() {
        while (running) {
            try {
                informers.waitForCacheSync(properties.cacheSyncTimeout());
                log.info("{} informer caches synced", informers.informers().size());
                begin();
                return;
            } catch (InformerSyncException e) {
                log.error("{}; still waiting", new CacheSyncException(properties.cacheSyncTimeout(),
                        CacheSyncException.unsynced(informers.informers())).getMessage());
            } catch (InterruptedException e) {
                return; // stopped
            }
        }
    }

    private void begin() {
        if (elector != null) {
            elector.start();
        } else {
            controllers.startAll();
        }
    }

    @Override
    public void stop() {
        Thread waiting;
        synchronized (lock) {
            if (!running) {
                return;
            }
            running = false;
            stopped = true;
            waiting = startup;
            startup = null;
        }
        if (waiting != null) {
            waiting.interrupt();
        }
        controllers.close(); // no new work; reconciles in flight finish within the shutdown timeout
        if (elector != null) {
            elector.close(); // releases the lease (when configured) once nothing runs here any more
        }
        informers.close();
        log.info("operator stopped");
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
}

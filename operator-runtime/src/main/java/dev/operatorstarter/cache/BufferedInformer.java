package dev.operatorstarter.cache;

import dev.operatorstarter.cache.Listener.Notification;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SharedIndexInformer} with one buffered {@link Listener} per handler: the processor thread
 * pops the {@link DeltaFifo}, applies each delta to the indexer and copies the notification into
 * every listener's buffer, never waiting on a handler.
 */
final class BufferedInformer<T extends HasMetadata> implements SharedIndexInformer<T> {

    private static final Logger log = LoggerFactory.getLogger(BufferedInformer.class);
    private static final Duration MIN_RESYNC = Duration.ofSeconds(1);

    private final String name;
    private final InformerOptions options;
    private final Indexer<T> indexer = Indexer.create();
    private final DeltaFifo<T> fifo;
    private final Reflector<T> reflector;
    private final Lister<T> lister;
    private final CopyOnWriteArrayList<Listener<T>> listeners = new CopyOnWriteArrayList<>();
    /** Held while deltas are applied and while a late handler takes its snapshot. */
    private final ReentrantLock deltas = new ReentrantLock();
    private final Object lifecycle = new Object();
    /** The reflector options' time source: the handlers' resync schedules. */
    private final TimeSource time;
    /**
     * The handlers a resync is for: those due at the last check, plus those of earlier checks
     * whose SYNC deltas may still be queued. A relist's unchanged objects go to them too (the
     * FIFO skips a resync for keys with pending deltas, so such an object stands in for its
     * resync). Cleared once the FIFO has drained, so a later relist reaches nobody.
     * Written under {@link #resyncing}.
     */
    private volatile List<Listener<T>> syncing = List.of();
    /** Held while {@link #syncing} changes together with the FIFO's content. Taken before the FIFO's lock. */
    private final Object resyncing = new Object();
    private @Nullable ScheduledExecutorService resyncTimer;
    private @Nullable ScheduledFuture<?> resyncTask;
    private long resyncTaskNanos;
    private boolean started;
    private volatile boolean stopped;

    BufferedInformer(String name, ListerWatcher<T> listerWatcher, Class<T> type, InformerOptions options) {
        this.name = Objects.requireNonNull(name, "name");
        this.options = Objects.requireNonNull(options, "options");
        this.time = options.reflector().timeSource();
        this.fifo = new DeltaFifo<>(new DeltaFifo.KnownObjects<>() {
            @Override
            public List<String> listKeys() {
                return indexer.listKeys();
            }

            @Override
            public Optional<T> get(String key) {
                return indexer.get(key);
            }
        });
        UnaryOperator<HasMetadata> transform = options.transform();
        UnaryOperator<T> typed = object -> {
            HasMetadata result = transform.apply(object);
            if (!type.isInstance(result)) {
                throw new IllegalStateException(name + ": the transform turned a " + type.getName() + " into "
                        + (result == null ? "null" : result.getClass().getName()));
            }
            return type.cast(result);
        };
        this.reflector = new Reflector<>(name, listerWatcher, fifo, typed, options.reflector(), options.metrics());
        this.lister = Lister.of(indexer);
    }

    @Override
    public HandlerRegistration addEventHandler(ResourceEventHandler<T> handler) {
        return addEventHandler(handler, options.resyncPeriod());
    }

    @Override
    public HandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod) {
        Objects.requireNonNull(handler, "handler");
        Durations.requireNotNegative(resyncPeriod, "resyncPeriod");
        Duration period = resyncPeriod.isZero() || resyncPeriod.compareTo(MIN_RESYNC) >= 0 ? resyncPeriod : MIN_RESYNC;
        synchronized (lifecycle) {
            if (stopped) {
                throw new IllegalStateException(name + ": the informer is stopped");
            }
            Listener<T>[] self = newListenerHolder();
            Listener<T> listener = new Listener<>(name, handler, period, time.nanoTime(), this::hasSynced,
                    () -> removeListener(self[0]));
            self[0] = listener;
            deltas.lock();
            try {
                // The snapshot and the listener's arrival are atomic with respect to delta processing:
                // the handler sees every object exactly once, as a replayed add or as a later change.
                if (started) {
                    indexer.list().forEach(object -> listener.add(new Notification.Add<>(object, true)));
                }
                listeners.add(listener);
            } finally {
                deltas.unlock();
            }
            if (started) {
                startListener(listener);
                scheduleResync();
            }
            return listener;
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> Listener<T>[] newListenerHolder() {
        return (Listener<T>[]) new Listener<?>[1];
    }

    private void removeListener(Listener<T> listener) {
        if (listeners.remove(listener)) {
            listener.stop();
        }
    }

    @Override
    public void addIndexers(Map<String, IndexFunction<T>> indexers) {
        indexer.addIndexers(indexers);
    }

    @Override
    public Indexer<T> indexer() {
        return indexer;
    }

    @Override
    public Lister<T> lister() {
        return lister;
    }

    @Override
    public void start() {
        synchronized (lifecycle) {
            if (stopped) {
                throw new IllegalStateException(name + ": a stopped informer cannot be started again");
            }
            if (started) {
                return;
            }
            started = true;
            options.metrics().storeCreated(name, indexer::size);
            listeners.forEach(this::startListener);
            thread(this::processLoop, "processor").start();
            thread(reflector::run, "reflector").start();
            scheduleResync();
        }
    }

    private void startListener(Listener<T> listener) {
        thread(listener::run, "handler").start();
    }

    private Thread thread(Runnable task, String role) {
        Thread thread = options.threadFactory().newThread(task);
        try {
            thread.setName("informer-" + name + "-" + role);
        } catch (SecurityException e) {
            // keep the factory's name
        }
        return thread;
    }

    /**
     * Schedules the next resync check for when the earliest handler is due, unless one is already
     * scheduled as early; none when no handler resyncs. Called under {@link #lifecycle}.
     */
    private void scheduleResync() {
        OptionalLong next = ResyncCheck.nextCheck(listeners);
        if (next.isEmpty() || stopped) {
            return;
        }
        long at = next.getAsLong();
        if (resyncTask != null && !resyncTask.isDone() && resyncTaskNanos - at <= 0) {
            return;
        }
        if (resyncTimer == null) {
            resyncTimer = Executors.newSingleThreadScheduledExecutor(task -> thread(task, "resync"));
        }
        if (resyncTask != null) {
            resyncTask.cancel(false);
        }
        resyncTaskNanos = at;
        resyncTask = resyncTimer.schedule(this::checkResync, Math.max(0, at - time.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /**
     * Resyncs the handlers that are due, then schedules the next check. Runs on the resync timer;
     * package-private so that tests on a fake time source can run a check when they move time.
     */
    void checkResync() {
        try {
            synchronized (lifecycle) {
                if (resyncTask != null) {
                    resyncTask.cancel(false); // this run, or a pending one a test's call replaces
                    resyncTask = null;
                }
            }
            ResyncCheck<T> check = ResyncCheck.at(time.nanoTime(), listeners);
            if (!check.due().isEmpty()) {
                synchronized (resyncing) {
                    List<Listener<T>> targets = new ArrayList<>(syncing);
                    check.due().stream().filter(listener -> !targets.contains(listener)).forEach(targets::add);
                    syncing = List.copyOf(targets);
                    fifo.resync();
                }
            }
        } catch (RuntimeException e) {
            log.warn("{}: resync failed", name, e);
        } finally {
            synchronized (lifecycle) {
                scheduleResync();
            }
        }
    }

    /** Forgets the handlers of past resyncs once everything queued, their SYNC deltas included, is applied. */
    private void endResyncIfDrained() {
        if (syncing.isEmpty()) {
            return;
        }
        synchronized (resyncing) {
            if (fifo.isEmpty()) {
                syncing = List.of();
            }
        }
    }

    private void processLoop() {
        while (!stopped) {
            try {
                fifo.pop(this::apply, 1, TimeUnit.SECONDS);
                endResyncIfDrained();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                // A bug of ours, not of an object: keep the cache moving rather than freeze it.
                log.error("{}: the informer's processor failed on a batch of deltas; going on", name, e);
                options.metrics().processingError(name, "process");
            } catch (Error e) {
                log.error("{}: the informer's processor failed; the cache no longer changes", name, e);
                throw e;
            }
        }
    }

    /** Applies one key's deltas to the indexer and notifies; runs under the FIFO's lock. */
    private void apply(DeltaFifo.Deltas<T> batch) {
        deltas.lock();
        try {
            for (Delta<T> delta : batch.deltas()) {
                try {
                    apply(batch, delta);
                } catch (IndexFunctionException e) {
                    // The indexer is unchanged: it keeps its previous version of the object (if any),
                    // and no handler hears of this delta. Later deltas of the key are applied as usual.
                    log.error("{}: skipped {} of {}: {}; the cache keeps its previous version", name,
                            delta.type().name().toLowerCase(java.util.Locale.ROOT), batch.key(), e.getMessage(),
                            e.getCause());
                    options.metrics().processingError(name, "index");
                }
            }
        } finally {
            deltas.unlock();
        }
    }

    private void apply(DeltaFifo.Deltas<T> batch, Delta<T> delta) {
        T object = delta.object();
        switch (delta.type()) {
            case ADDED, UPDATED, REPLACED, SYNC -> {
                Optional<T> old = indexer.get(batch.key());
                indexer.update(object);
                if (old.isPresent()) {
                    boolean resyncOnly = delta.type() == Delta.Type.SYNC
                            || delta.type() == Delta.Type.REPLACED && sameVersion(old.get(), object);
                    Notification<T> update = new Notification.Update<>(old.get(), object);
                    (resyncOnly ? syncing : listeners).forEach(listener -> listener.add(update));
                } else {
                    Notification<T> add = new Notification.Add<>(object, batch.isInInitialList());
                    listeners.forEach(listener -> listener.add(add));
                }
            }
            case DELETED -> {
                indexer.delete(object);
                Notification<T> delete = new Notification.Delete<>(object, delta.finalStateUnknown());
                listeners.forEach(listener -> listener.add(delete));
            }
        }
    }

    private static boolean sameVersion(HasMetadata a, HasMetadata b) {
        String left = a.getMetadata().getResourceVersion();
        return left != null && left.equals(b.getMetadata().getResourceVersion());
    }

    @Override
    public void stop() {
        synchronized (lifecycle) {
            if (stopped) {
                return;
            }
            stopped = true;
        }
        reflector.stop();
        fifo.close();
        listeners.forEach(Listener::stop);
        if (resyncTimer != null) {
            resyncTimer.shutdownNow();
        }
    }

    /** True once {@link #stop()} was called: the cache is no longer kept up to date. */
    boolean isStopped() {
        return stopped;
    }

    @Override
    public boolean hasSynced() {
        return fifo.hasSynced();
    }

    @Override
    public boolean isWatching() {
        return reflector.isWatching();
    }

    @Override
    public String lastSyncResourceVersion() {
        return reflector.lastSyncResourceVersion();
    }

    @Override
    public Optional<ReflectorException> lastError() {
        return reflector.lastError();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "informer " + name;
    }
}

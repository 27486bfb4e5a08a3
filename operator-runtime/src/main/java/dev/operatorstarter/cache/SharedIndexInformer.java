package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * A cache of one collection kept up to date by a {@link Reflector}, with handlers notified of
 * every change (client-go's {@code SharedIndexInformer}). Share one per collection: the
 * {@link SharedInformerFactory} does.
 *
 * <p>Guarantees:
 * <ul>
 *   <li>The {@link #indexer()} is updated before handlers are notified, so a handler that reads
 *       the cache sees at least the version it was told about.</li>
 *   <li>Each handler has its own thread and unbounded buffer: a slow, blocked or failing handler
 *       delays nothing but itself. A handler added after {@link #start()} first receives the
 *       current content as adds.</li>
 *   <li>A resync reaches only the handlers whose own resync period is due, when it is due (each
 *       handler on its own schedule, not rounded to another handler's period); a relist that finds
 *       an object unchanged notifies no one else.</li>
 *   <li>An object an index function or the transform throws on is skipped, logged with its key
 *       and counted ({@link ReflectorMetrics#processingError}); the informer goes on.</li>
 *   <li>Objects pass through the {@linkplain InformerOptions#transform() transform} before
 *       they are cached.</li>
 * </ul>
 *
 * <p>Lifecycle: {@link #start()} once; {@link #stop()} ends every thread (pending notifications
 * are dropped). An informer cannot be restarted.
 */
public interface SharedIndexInformer<T extends HasMetadata> extends AutoCloseable {

    /**
     * An informer over any list and watch; most code gets informers from a
     * {@link SharedInformerFactory} instead.
     *
     * @param name names the informer in logs and metrics
     * @param type the class of the objects (the transform must keep it)
     */
    static <T extends HasMetadata> SharedIndexInformer<T> create(String name, ListerWatcher<T> listerWatcher,
            Class<T> type, InformerOptions options) {
        return new BufferedInformer<>(name, listerWatcher, type, options);
    }

    /** Adds a handler with the informer's default resync period. */
    HandlerRegistration addEventHandler(ResourceEventHandler<T> handler);

    /**
     * Adds a handler that is resynced every {@code resyncPeriod} (zero: never). A period shorter
     * than one second is raised to one second.
     */
    HandlerRegistration addEventHandler(ResourceEventHandler<T> handler, Duration resyncPeriod);

    /** Adds indexes to the cache. */
    void addIndexers(Map<String, IndexFunction<T>> indexers);

    /** The cache. Read-only for callers: only the informer writes it. */
    Indexer<T> indexer();

    /** Reads the cache by namespace, name and labels. */
    Lister<T> lister();

    /** Starts the reflector and the notification threads. */
    void start();

    /** Stops all of the informer's threads. Idempotent. */
    void stop();

    @Override
    default void close() {
        stop();
    }

    /** True once the first list has been fully applied to the cache. */
    boolean hasSynced();

    /** True while the reflector has a watch open. */
    boolean isWatching();

    /** The resourceVersion the cache has reached. */
    String lastSyncResourceVersion();

    /** The latest list or watch failure, if the last attempt failed; empty once a list or watch succeeds. */
    Optional<ReflectorException> lastError();

    /** This informer's name: resource[.group], then "/namespace" when it watches one namespace. */
    String name();
}

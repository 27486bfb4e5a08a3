package dev.operatorstarter.cache;

import dev.operatorstarter.cache.ReflectorState.Outcome;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.ResponseTooLargeException;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.internal.StopSignal;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;

/**
 * Keeps a {@link DeltaFifo} in step with one collection on the server: lists it, then watches it
 * from the list's resourceVersion, relisting when the watch's version expires (client-go's
 * {@code Reflector}). The policy is {@link ReflectorState#next}; this class runs the steps.
 *
 * <p>Guarantees: the FIFO receives a {@code replace} with the full collection after every list,
 * then every change in order; objects pass through the transform first (one it throws on is
 * skipped, logged and counted, and the watch goes on). A watch that ends is
 * reopened from the last version seen (bookmarks included), so no change is missed and a relist
 * happens only when the server says that version is gone. A watch silent for longer than the
 * stall timeout is reopened, and so is, at once, a watch cut mid-stream. Failing to open a list
 * or watch backs off with jitter (briefly while the server cannot be reached at all); nothing
 * ends the loop but {@link #stop()}.
 *
 * <p>Threading: {@link #run()} blocks the calling thread until {@link #stop()}; the other methods
 * may be called from any thread.
 */
final class Reflector<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Reflector.class);
    private static final Duration SHORT_WATCH = Duration.ofSeconds(1);
    /** Watch events decoded ahead of the FIFO. */
    private static final int PREFETCH = 64;

    private final String name;
    private final ListerWatcher<T> listerWatcher;
    private final DeltaFifo<T> fifo;
    private final IsolatedTransform<T> transform;
    private final ReflectorOptions options;
    private final ReflectorMetrics metrics;
    private final Backoff backoff;
    private final ListPager<T> pager;
    /** The watch being read, if any: {@link #stop()} ends it. */
    private volatile @Nullable StallWatchdog<?> openWatch;
    /** Raised by {@link #stop()}; ends the wait of a backoff early. */
    private final StopSignal stop = new StopSignal();
    private volatile ReflectorState state = new ReflectorState.Listing("");
    private volatile String lastSyncResourceVersion = "";
    private volatile boolean watching;
    private volatile boolean streamingList;
    private volatile @Nullable ReflectorException lastError;
    /** Failed attempts to list or open a watch since the last success; logged at WARN only for the first. */
    private int failuresInARow;

    /**
     * @param name names this reflector in logs, errors and metrics (resource[.group] and namespace)
     * @param transform applied to every object before it enters the FIFO
     */
    public Reflector(String name, ListerWatcher<T> listerWatcher, DeltaFifo<T> fifo, UnaryOperator<T> transform,
            ReflectorOptions options, ReflectorMetrics metrics) {
        this.name = Objects.requireNonNull(name, "name");
        this.listerWatcher = Objects.requireNonNull(listerWatcher, "listerWatcher");
        this.fifo = Objects.requireNonNull(fifo, "fifo");
        this.transform = new IsolatedTransform<>(name, transform, metrics);
        this.options = Objects.requireNonNull(options, "options");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.backoff = new Backoff(options.initialBackoff(), options.maxBackoff(), options.unreachableBackoff(),
                options.backoffReset(), options.timeSource(), () -> ThreadLocalRandom.current().nextDouble());
        this.streamingList = options.streamingList();
        this.pager = new ListPager<>(name, listerWatcher, options.pageSize());
    }

    /** Lists and watches until {@link #stop()}; returns then. */
    public void run() {
        log.debug("{}: reflector started", name);
        while (!(state instanceof ReflectorState.Stopped)) {
            ReflectorState current = state;
            if (current instanceof ReflectorState.BackingOff backingOff) {
                state = sleep(backingOff.delay()) ? backingOff.then() : new ReflectorState.Stopped();
                continue;
            }
            Outcome outcome = isStopped() ? new Outcome.StopRequested() : step(current);
            report(outcome);
            state = ReflectorState.next(current, isStopped() ? new Outcome.StopRequested() : outcome, backoff);
        }
        watching = false;
        // Last, so that no meter is registered again after its removal.
        metrics.stopped(name);
        log.debug("{}: reflector stopped", name);
    }

    /**
     * Ends {@link #run()}: cancels an open watch; a list in flight finishes first. When
     * {@code run()} returns, the metrics of this reflector's name are removed.
     */
    public void stop() {
        stop.raise();
        StallWatchdog<?> open = openWatch;
        if (open != null) {
            open.end();
        }
    }

    /** True while a watch is open (for health checks). */
    public boolean isWatching() {
        return watching;
    }

    /** The resourceVersion the cache has reached: from the last list, event or bookmark. */
    public String lastSyncResourceVersion() {
        return lastSyncResourceVersion;
    }

    /** The last failure, until a list, event or bookmark succeeds. */
    public java.util.Optional<ReflectorException> lastError() {
        return java.util.Optional.ofNullable(lastError);
    }

    /** The current state. */
    public ReflectorState state() {
        return state;
    }

    /** This reflector's name. */
    public String name() {
        return name;
    }

    private boolean isStopped() {
        return stop.isRaised();
    }

    private Outcome step(ReflectorState current) {
        if (current instanceof ReflectorState.Listing listing) {
            return list(listing.resourceVersion());
        }
        if (current instanceof ReflectorState.Watching watchingState) {
            return watch(watchingState.resourceVersion());
        }
        throw new IllegalStateException("no step for " + current);
    }

    private void report(Outcome outcome) {
        ReflectorException error = outcome.error();
        if (outcome instanceof Outcome.Listed || outcome instanceof Outcome.WatchCut
                || outcome instanceof Outcome.WatchStalled
                || outcome instanceof Outcome.WatchEnded ended && ended.healthy()) {
            recovered(); // a watch opened, or a list succeeded
        }
        if (error == null) {
            return;
        }
        lastError = error;
        if (outcome instanceof Outcome.WatchExpired || outcome instanceof Outcome.ListExpired) {
            log.info("{}; relisting", error.getMessage());
        } else if (outcome instanceof Outcome.WatchCut) {
            log.info("{}; reopening it", error.getMessage());
        } else if (failuresInARow++ == 0) {
            log.warn("{}", error.getMessage());
        } else {
            // Retried every second or so while the server is down: one warning per outage is enough.
            log.debug("{} (failure {} in a row)", error.getMessage(), failuresInARow);
        }
        try {
            options.errorHandler().accept(error);
        } catch (RuntimeException e) {
            log.warn("{}: the reflector's error handler failed", name, e);
        }
    }

    // ---- list

    private Outcome list(String resourceVersion) {
        if (streamingList) {
            Outcome streamed = streamList(resourceVersion);
            if (streamed != null) {
                return streamed;
            }
        }
        long started = options.timeSource().nanoTime();
        List<T> items = new ArrayList<>();
        Set<String> unread = new HashSet<>();
        String listVersion;
        try {
            listVersion = pager.list(resourceVersion, new ListPager.Pages<>() {
                @Override
                public void add(List<T> page) {
                    transform.applyAll(page, items, unread);
                }

                @Override
                public void discard() {
                    items.clear();
                    unread.clear();
                }
            });
        } catch (RuntimeException e) {
            String message = "list from resourceVersion \"" + resourceVersion + "\" failed: " + describe(e);
            ReflectorException error = new ReflectorException.ListFailed(name, message, e);
            return Failures.expired(e) ? new Outcome.ListExpired(error) : new Outcome.ListFailed(error);
        }
        fifo.replace(items, unread);
        advance(listVersion);
        metrics.listed(name, options.timeSource().since(started), items.size());
        log.debug("{}: listed {} objects at resourceVersion {}", name, items.size(), listVersion);
        return new Outcome.Listed(listVersion);
    }

    /**
     * A streaming list ({@link StreamingList}). Returns null when the server does not support it
     * (the caller lists instead, and so does every later relist).
     */
    private @Nullable Outcome streamList(String resourceVersion) {
        StreamingList<T> initial = new StreamingList<>(options.timeSource().nanoTime());
        Outcome result;
        try {
            ListOptions watchOptions = StreamingList.options(resourceVersion, watchTimeoutSeconds());
            Outcome streamed = consume(listerWatcher.watch(watchOptions), resourceVersion, initial);
            result = initial.result(name, resourceVersion, streamed);
        } catch (StreamingList.Unsupported e) {
            result = null;
            log.info("{}: the server does not support streaming lists ({}); using paginated lists", name,
                    e.getMessage());
        }
        if (result == null) {
            streamingList = false;
        }
        return result;
    }

    // ---- watch

    private Outcome watch(String resourceVersion) {
        ListOptions watchOptions = ListOptions.builder().resourceVersion(resourceVersion).allowWatchBookmarks(true)
                .timeoutSeconds(watchTimeoutSeconds()).build();
        return consume(listerWatcher.watch(watchOptions), resourceVersion, null);
    }

    private long watchTimeoutSeconds() {
        long min = options.minWatchTimeout().toSeconds();
        return min + ThreadLocalRandom.current().nextLong(min + 1);
    }

    /**
     * Reads one watch stream to its end, feeding the FIFO (or, while {@code initial} collects a
     * streaming list's initial events, that list); returns how it ended.
     */
    private Outcome consume(Flux<WatchEvent<T>> events, String fromVersion, @Nullable StreamingList<T> initial) {
        String version = fromVersion;
        long started = options.timeSource().nanoTime();
        int count = 0;
        int delivered = 0; // events other than errors: proof that the watch opened
        metrics.watchStarted(name);
        // stop() ends the watch through openWatch, so no operator runs on every event for it
        Flux<WatchEvent<T>> opened = events.doOnSubscribe(subscription -> watching = true);
        try (StallWatchdog<WatchEvent<T>> stream = StallWatchdog.watch(opened, options.stallTimeout(),
                options.timeSource(), PREFETCH)) {
            openWatch = stream;
            if (isStopped()) { // stop() came before openWatch was set, so it did not see this watch
                stream.end();
            }
            while (stream.hasNext()) {
                WatchEvent<T> event = stream.next();
                count++;
                metrics.watchEvent(name, event.type());
                if (event instanceof WatchEvent.Error<T> error) {
                    ApiException exception = error.toException("watch " + name);
                    ReflectorException failure = new ReflectorException.WatchFailed(name,
                            watchFrom(fromVersion, version) + " ended with " + describe(exception), exception);
                    if (Failures.expired(exception)) {
                        return new Outcome.WatchExpired(version, failure);
                    }
                    return opened(delivered, started) ? new Outcome.WatchCut(version, failure)
                            : new Outcome.WatchFailed(version, failure);
                }
                delivered++;
                if (event instanceof WatchEvent.Bookmark<T> bookmark) {
                    version = bookmark.resourceVersion();
                    if (initial != null && initial.collecting()) {
                        if (!bookmark.endsInitialEvents()) {
                            continue; // a progress bookmark amid the initial events: the cache reaches nothing yet
                        }
                        int size = initial.finish(fifo);
                        metrics.listed(name, options.timeSource().since(initial.startedNanos()), size);
                        log.debug("{}: streamed {} objects at resourceVersion {}", name, size, version);
                    }
                    advance(version);
                    continue;
                }
                String objectVersion = apply(event, initial);
                if (objectVersion != null) {
                    version = objectVersion;
                    if (initial == null || !initial.collecting()) {
                        advance(version);
                    }
                }
            }
        } catch (RuntimeException e) { // failed() throws StreamingList.Unsupported out of here
            return failed(Exceptions.unwrap(e), fromVersion, version, delivered, started, initial);
        } finally {
            openWatch = null;
            watching = false;
            Duration duration = options.timeSource().since(started);
            metrics.watchEnded(name, duration, count == 0 && duration.compareTo(SHORT_WATCH) < 0 && !isStopped());
        }
        if (isStopped()) {
            return new Outcome.StopRequested();
        }
        boolean healthy = count > 0 || options.timeSource().since(started).compareTo(SHORT_WATCH) >= 0;
        if (!healthy) {
            log.info("{}: watch closed at once without events; backing off", name);
        }
        return new Outcome.WatchEnded(version, healthy);
    }

    /**
     * Applies one object event: to the FIFO, or to {@code initial} while it collects; an object the
     * transform fails on is skipped (the cache keeps its previous version), except a deletion,
     * which must happen even so. Returns the object's resourceVersion.
     */
    private @Nullable String apply(WatchEvent<T> event, @Nullable StreamingList<T> initial) {
        T raw = objectOf(event);
        String version = raw.getMetadata().getResourceVersion();
        T transformed = transform.apply(raw, "watched");
        T object = transformed != null ? transformed : event instanceof WatchEvent.Deleted<T> ? raw : null;
        if (initial != null && initial.collecting()) {
            initial.accept(event, raw, object);
        } else if (object != null) {
            if (event instanceof WatchEvent.Added<T>) {
                fifo.add(object);
            } else if (event instanceof WatchEvent.Modified<T>) {
                fifo.update(object);
            } else {
                fifo.delete(object);
            }
        }
        return version;
    }

    /** How a watch that failed with {@code cause} after reaching {@code version} ended. */
    private Outcome failed(Throwable cause, String fromVersion, String version, int delivered, long started,
            @Nullable StreamingList<T> initial) {
        if (cause instanceof TimeoutException) {
            return new Outcome.WatchStalled(version, new ReflectorException.WatchStalled(name,
                    "watch delivered nothing for " + options.stallTimeout() + " (no event, no bookmark); reopening",
                    cause));
        }
        if (initial != null && initial.rejectedBy(cause)) {
            throw new StreamingList.Unsupported(describe(cause));
        }
        ReflectorException error = new ReflectorException.WatchFailed(name,
                watchFrom(fromVersion, version) + " failed: " + describe(cause), cause);
        if (Failures.expired(cause)) {
            return new Outcome.WatchExpired(version, error);
        }
        // An answer with an error status, or no answer at all, means the watch never opened. An
        // event over the size limit comes again on every reopening while the object is that
        // large: backed off like a failure, never reopened at once.
        boolean cut = !(cause instanceof ResponseTooLargeException) && (delivered > 0
                || !(cause instanceof ApiException) && !Failures.unreachable(cause) && opened(delivered, started));
        return cut ? new Outcome.WatchCut(version, error) : new Outcome.WatchFailed(version, error);
    }

    /** A watch opened if it delivered an event (an error event aside) or stayed open for a second. */
    private boolean opened(int delivered, long startedNanos) {
        return delivered > 0 || options.timeSource().nanoTime() - startedNanos >= SHORT_WATCH.toNanos();
    }

    /** Names the version a watch started from, and the one it reached when that differs. */
    private static String watchFrom(String fromVersion, String reached) {
        String from = "watch from resourceVersion \"" + fromVersion + "\"";
        return reached.equals(fromVersion) ? from : from + " (having reached \"" + reached + "\")";
    }

    private T objectOf(WatchEvent<T> event) {
        if (event instanceof WatchEvent.Added<T> added) {
            return added.object();
        }
        if (event instanceof WatchEvent.Modified<T> modified) {
            return modified.object();
        }
        if (event instanceof WatchEvent.Deleted<T> deleted) {
            return deleted.object();
        }
        throw new IllegalStateException("no object in " + event);
    }

    private void recovered() {
        if (failuresInARow > 0) {
            log.info("{}: the server answers again, after {} failed attempts", name, failuresInARow);
            failuresInARow = 0;
        }
    }

    private void advance(String resourceVersion) {
        recovered();
        lastError = null;
        if (resourceVersion != null && !resourceVersion.isEmpty()) {
            lastSyncResourceVersion = resourceVersion;
            metrics.resourceVersion(name, resourceVersion);
        }
    }

    static String describe(Throwable error) {
        return error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
    }

    /** Waits {@code delay} on the time source unless stopped first; false when stopped. */
    private boolean sleep(Duration delay) {
        TimeSource time = options.timeSource();
        try {
            return stop.awaitUntil(time.deadlineAfter(delay), time);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            return false;
        }
    }
}

package dev.operatorstarter.cache;

import dev.operatorstarter.cache.ReflectorState.Outcome;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.ResponseTooLargeException;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.internal.Backoff;
import dev.operatorstarter.internal.StopSignal;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.publisher.Sinks;

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

    private final String name;
    private final ListerWatcher<T> listerWatcher;
    private final DeltaFifo<T> fifo;
    private final UnaryOperator<T> transform;
    private final ReflectorOptions options;
    private final ReflectorMetrics metrics;
    private final Backoff backoff;
    private final Sinks.Empty<Void> stopSignal = Sinks.empty();
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
        this.transform = Objects.requireNonNull(transform, "transform");
        this.options = Objects.requireNonNull(options, "options");
        this.metrics = Objects.requireNonNull(metrics, "metrics");
        this.backoff = new Backoff(options.initialBackoff(), options.maxBackoff(), options.unreachableBackoff(),
                options.backoffReset(), options.timeSource(), () -> ThreadLocalRandom.current().nextDouble());
        this.streamingList = options.streamingList();
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
        stopSignal.tryEmitEmpty();
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
        ReflectorException error = null;
        if (outcome instanceof Outcome.ListFailed failed) {
            error = failed.error();
        } else if (outcome instanceof Outcome.ListExpired expired) {
            error = expired.error();
        } else if (outcome instanceof Outcome.WatchFailed failed) {
            error = failed.error();
        } else if (outcome instanceof Outcome.WatchCut cut) {
            error = cut.error();
        } else if (outcome instanceof Outcome.WatchExpired expired) {
            error = expired.error();
        } else if (outcome instanceof Outcome.WatchStalled stalled) {
            error = stalled.error();
        }
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
            listVersion = listPages(resourceVersion, items, unread);
        } catch (RuntimeException e) {
            String message = "list from resourceVersion \"" + resourceVersion + "\" failed: " + describe(e);
            ReflectorException error = new ReflectorException.ListFailed(name, message, e);
            return isExpired(e) ? new Outcome.ListExpired(error) : new Outcome.ListFailed(error);
        }
        fifo.replace(items, unread);
        advance(listVersion);
        metrics.listed(name, Duration.ofNanos(options.timeSource().nanoTime() - started), items.size());
        log.debug("{}: listed {} objects at resourceVersion {}", name, items.size(), listVersion);
        return new Outcome.Listed(listVersion);
    }

    /**
     * Fills {@code items} page by page, and {@code unread} with the keys of the objects the
     * transform failed on; returns the list's resourceVersion.
     */
    private String listPages(String resourceVersion, List<T> items, Set<String> unread) {
        ListOptions first = ListOptions.builder().limit(options.pageSize()).resourceVersion(resourceVersion)
                .resourceVersionMatch(resourceVersion.isEmpty() ? null : "NotOlderThan").build();
        ResourceList<T> page = listerWatcher.list(first);
        String listVersion = page.resourceVersion();
        addAll(items, unread, page);
        while (!page.continueToken().isEmpty()) {
            ListOptions next = ListOptions.builder().limit(options.pageSize()).continueToken(page.continueToken())
                    .build();
            try {
                page = listerWatcher.list(next);
            } catch (ApiException e) {
                if (!isExpired(e)) {
                    throw e;
                }
                // The continue token outlived etcd's compaction window: take everything in one
                // request instead (client-go's pager does the same).
                log.info("{}: continue token expired after {} objects; listing everything in one request", name,
                        items.size());
                items.clear();
                unread.clear();
                page = listerWatcher.list(ListOptions.builder().resourceVersion(resourceVersion)
                        .resourceVersionMatch(resourceVersion.isEmpty() ? null : "NotOlderThan").build());
                addAll(items, unread, page);
                return page.resourceVersion();
            }
            addAll(items, unread, page);
        }
        return listVersion;
    }

    private void addAll(List<T> items, Set<String> unread, ResourceList<T> page) {
        for (T item : page.items()) {
            T transformed = transformed(item, "listed");
            if (transformed != null) {
                items.add(transformed);
            } else {
                unread.add(Keys.of(item));
            }
        }
    }

    /**
     * The object after the transform, or null when the transform threw: then the failure is
     * logged once with the object's key and counted, and the caller leaves the object out (the
     * cache keeps its previous version), as client-go does with a watch event its store rejects.
     */
    private @Nullable T transformed(T object, String how) {
        try {
            return transform.apply(object);
        } catch (RuntimeException e) {
            log.error("{}: the transform failed on {} object {} (resourceVersion {}); skipped, the cache keeps its "
                    + "previous version", name, how, keyOf(object), object.getMetadata() == null ? null
                    : object.getMetadata().getResourceVersion(), e);
            metrics.processingError(name, "transform");
            return null;
        }
    }

    private static String keyOf(HasMetadata object) {
        try {
            return Keys.of(object);
        } catch (RuntimeException e) {
            return "(no key)";
        }
    }

    /**
     * A streaming list: a watch that starts with the current state as ADDED events and marks their
     * end with a bookmark, then goes on as a normal watch. Returns null when the server does not
     * support it (the caller lists instead, and so does every later relist).
     */
    private @Nullable Outcome streamList(String resourceVersion) {
        ListOptions watchOptions = ListOptions.builder().resourceVersion(resourceVersion)
                .resourceVersionMatch("NotOlderThan").sendInitialEvents(true).allowWatchBookmarks(true)
                .timeoutSeconds(watchTimeoutSeconds()).build();
        InitialEvents<T> initial = new InitialEvents<>(options.timeSource().nanoTime());
        Outcome outcome;
        try {
            outcome = consume(listerWatcher.watch(watchOptions), resourceVersion, initial);
        } catch (StreamingUnsupported e) {
            outcome = null;
            log.info("{}: the server does not support streaming lists ({}); using paginated lists", name,
                    e.getMessage());
        }
        if (outcome == null || (!initial.done && isUnsupported(outcome))) {
            streamingList = false;
            return null;
        }
        if (initial.done) {
            return outcome;
        }
        if (outcome instanceof Outcome.StopRequested) {
            return outcome;
        }
        // The stream ended before its initial events did: a failed list.
        ReflectorException cause = errorOf(outcome);
        ReflectorException error = new ReflectorException.ListFailed(name, "streaming list from resourceVersion \""
                + resourceVersion + "\" " + (cause == null ? "ended before its initial events did" : "failed: "
                + describe(cause.getCause() == null ? cause : cause.getCause())), cause == null ? new IllegalStateException("stream ended") : cause);
        return outcome instanceof Outcome.WatchExpired ? new Outcome.ListExpired(error) : new Outcome.ListFailed(error);
    }

    private static boolean isUnsupported(Outcome outcome) {
        ReflectorException error = errorOf(outcome);
        Throwable cause = error == null ? null : error.getCause();
        return cause != null && (ApiErrors.isBadRequest(cause) || ApiErrors.isInvalid(cause));
    }

    private static @Nullable ReflectorException errorOf(Outcome outcome) {
        if (outcome instanceof Outcome.WatchFailed failed) {
            return failed.error();
        }
        if (outcome instanceof Outcome.WatchCut cut) {
            return cut.error();
        }
        if (outcome instanceof Outcome.WatchExpired expired) {
            return expired.error();
        }
        if (outcome instanceof Outcome.WatchStalled stalled) {
            return stalled.error();
        }
        return null;
    }

    /** The objects of a streaming list's initial events, until its end bookmark. */
    private static final class InitialEvents<T> {
        final long startedNanos;
        final Map<String, T> objects = new LinkedHashMap<>();
        /** Keys of objects the transform failed on (and that have no earlier state in {@link #objects}). */
        final Set<String> unread = new HashSet<>();
        boolean done;

        InitialEvents(long startedNanos) {
            this.startedNanos = startedNanos;
        }
    }

    private static final class StreamingUnsupported extends RuntimeException {
        StreamingUnsupported(String message) {
            super(message, null, false, false);
        }
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
     * {@code events}, failing with a {@link TimeoutException} once {@code stall} passes without one.
     * One timer at a time, due when the stall would be, instead of a new timer for every event
     * ({@code Flux.timeout} schedules and cancels one per event, which costs more than decoding
     * it): each event only notes when it came; when the timer fires it either fails the stream or
     * is set again for what is left of the stall since the last event.
     */
    static <E> Flux<E> failWhenStalled(Flux<E> events, Duration stall) {
        long stallNanos = stall.toNanos();
        return Flux.defer(() -> {
            AtomicLong lastEvent = new AtomicLong(System.nanoTime());
            Flux<Void> watchdog = Mono.defer(() -> {
                long left = lastEvent.get() + stallNanos - System.nanoTime();
                return left <= 0 ? Mono.<Void>error(new TimeoutException("no event for " + stall))
                        : Mono.delay(Duration.ofNanos(left)).then();
            }).repeat();
            return events.doOnNext(event -> lastEvent.lazySet(System.nanoTime())).takeUntilOther(watchdog);
        });
    }

    /** Reads one watch stream to its end, feeding the FIFO; returns how it ended. */
    private Outcome consume(Flux<WatchEvent<T>> events, String fromVersion, @Nullable InitialEvents<T> initial) {
        String version = fromVersion;
        long started = options.timeSource().nanoTime();
        int count = 0;
        int delivered = 0; // events other than errors: proof that the watch opened
        metrics.watchStarted(name);
        // Materialized, so that an error comes after the events decoded before it: a blocking
        // stream would throw it as soon as it arrived, dropping the events still queued.
        Flux<Signal<WatchEvent<T>>> guarded = failWhenStalled(events
                .doOnSubscribe(subscription -> watching = true), options.stallTimeout())
                .takeUntilOther(stopSignal.asMono())
                .materialize();
        try (Stream<Signal<WatchEvent<T>>> stream = guarded.toStream(64)) {
            Iterator<Signal<WatchEvent<T>>> iterator = stream.iterator();
            while (iterator.hasNext()) {
                Signal<WatchEvent<T>> signal = iterator.next();
                if (signal.isOnError()) {
                    throw Exceptions.propagate(signal.getThrowable());
                }
                if (!signal.isOnNext()) {
                    break; // completed
                }
                WatchEvent<T> event = signal.get();
                count++;
                metrics.watchEvent(name, typeOf(event));
                if (event instanceof WatchEvent.Error<T> error) {
                    ApiException exception = error.toException("watch " + name);
                    ReflectorException failure = new ReflectorException.WatchFailed(name,
                            watchFrom(fromVersion, version) + " ended with " + describe(exception), exception);
                    if (isExpired(exception)) {
                        return new Outcome.WatchExpired(version, failure);
                    }
                    return opened(delivered, started) ? new Outcome.WatchCut(version, failure)
                            : new Outcome.WatchFailed(version, failure);
                }
                delivered++;
                if (event instanceof WatchEvent.Bookmark<T> bookmark) {
                    version = bookmark.resourceVersion();
                    if (initial != null && !initial.done) {
                        if (!bookmark.endsInitialEvents()) {
                            // A progress bookmark amid the initial events: not their end (client-go
                            // tolerates it too). The cache reaches nothing until the end bookmark.
                            continue;
                        }
                        List<T> objects = new ArrayList<>(initial.objects.values());
                        initial.objects.clear();
                        fifo.replace(objects, initial.unread);
                        initial.done = true;
                        metrics.listed(name, Duration.ofNanos(options.timeSource().nanoTime() - initial.startedNanos),
                                objects.size());
                        log.debug("{}: streamed {} objects at resourceVersion {}", name, objects.size(), version);
                    }
                    advance(version);
                    continue;
                }
                T raw = objectOf(event);
                String objectVersion = raw.getMetadata().getResourceVersion();
                T transformed = transformed(raw, "watched");
                // A deletion must happen even if the transform fails on its final state.
                T object = transformed != null ? transformed : event instanceof WatchEvent.Deleted<T> ? raw : null;
                if (initial != null && !initial.done) {
                    String key = Keys.of(raw);
                    if (event instanceof WatchEvent.Deleted<T>) {
                        initial.objects.remove(key);
                        initial.unread.remove(key);
                    } else if (object != null) {
                        initial.objects.put(key, object);
                        initial.unread.remove(key);
                    } else if (!initial.objects.containsKey(key)) {
                        initial.unread.add(key);
                    }
                    if (objectVersion != null) {
                        version = objectVersion;
                    }
                    continue;
                }
                if (object != null) { // else skipped: the cache keeps its previous version
                    if (event instanceof WatchEvent.Added<T>) {
                        fifo.add(object);
                    } else if (event instanceof WatchEvent.Modified<T>) {
                        fifo.update(object);
                    } else {
                        fifo.delete(object);
                    }
                }
                if (objectVersion != null) {
                    version = objectVersion;
                    advance(version);
                }
            }
        } catch (StreamingUnsupported e) {
            throw e;
        } catch (RuntimeException e) {
            Throwable cause = Exceptions.unwrap(e);
            if (cause instanceof TimeoutException) {
                return new Outcome.WatchStalled(version, new ReflectorException.WatchStalled(name,
                        "watch delivered nothing for " + options.stallTimeout() + " (no event, no bookmark); reopening",
                        cause));
            }
            if (initial != null && !initial.done && (ApiErrors.isBadRequest(cause) || ApiErrors.isInvalid(cause))) {
                throw new StreamingUnsupported(describe(cause));
            }
            ReflectorException error = new ReflectorException.WatchFailed(name,
                    watchFrom(fromVersion, version) + " failed: " + describe(cause), cause);
            if (isExpired(cause)) {
                return new Outcome.WatchExpired(version, error);
            }
            // An answer with an error status, or no answer at all, means the watch never opened. An
            // event over the size limit comes again on every reopening while the object is that
            // large: backed off like a failure, never reopened at once.
            boolean cut = !(cause instanceof ResponseTooLargeException) && (delivered > 0
                    || !(cause instanceof ApiException) && !Failures.unreachable(cause) && opened(delivered, started));
            return cut ? new Outcome.WatchCut(version, error) : new Outcome.WatchFailed(version, error);
        } finally {
            watching = false;
            Duration duration = Duration.ofNanos(options.timeSource().nanoTime() - started);
            metrics.watchEnded(name, duration, count == 0 && duration.compareTo(SHORT_WATCH) < 0 && !isStopped());
        }
        if (isStopped()) {
            return new Outcome.StopRequested();
        }
        Duration duration = Duration.ofNanos(options.timeSource().nanoTime() - started);
        boolean healthy = count > 0 || duration.compareTo(SHORT_WATCH) >= 0;
        if (!healthy) {
            log.info("{}: watch closed at once without events; backing off", name);
        }
        return new Outcome.WatchEnded(version, healthy);
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

    private static String typeOf(WatchEvent<?> event) {
        if (event instanceof WatchEvent.Added<?>) {
            return "ADDED";
        }
        if (event instanceof WatchEvent.Modified<?>) {
            return "MODIFIED";
        }
        if (event instanceof WatchEvent.Deleted<?>) {
            return "DELETED";
        }
        if (event instanceof WatchEvent.Bookmark<?>) {
            return "BOOKMARK";
        }
        return "ERROR";
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

    private static boolean isExpired(Throwable error) {
        return ApiErrors.isResourceExpired(error) || ApiErrors.isGone(error);
    }

    private static String describe(Throwable error) {
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

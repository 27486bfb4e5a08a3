package dev.operatorstarter.controller;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.internal.Poll;
import dev.operatorstarter.time.TimeSource;
import dev.operatorstarter.workqueue.PriorityQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles one primary resource: notifications from its informer (filtered), from owned
 * resources (mapped to their controlling owner) and from mapped watches become
 * {@link ReconcileRequest}s in a rate-limited work queue, and {@link ControllerOptions#workers()}
 * workers run the {@link ReconcileHandler} (controller-runtime's controller). Describe one with
 * {@link #builder}.
 *
 * <p>Guarantees: one request is never reconciled by two workers at once (across a restart too: a
 * restarted controller waits for a reconcile that {@link #stop} abandoned), and a change that
 * arrives during its reconcile leads to one more reconcile afterwards; an exception means a
 * rate-limited retry with no attempt limit; a {@link TerminalException} is not retried; nothing
 * thrown, {@link Error}s included, stops a worker, and neither does an interrupt: workers end only
 * when the controller stops (an interrupt flag a reconcile leaves set is cleared after it, and the
 * {@linkplain ControllerOptions#reconcileTimeout() timeout}'s interrupt never reaches a later
 * reconcile); a reconcile never sees, in the primary informer's cache, an object older than this
 * controller's last write to it through a {@linkplain #tracked tracked} client (waiting up to
 * {@link ControllerOptions#readYourWritesTimeout()}). Each reconcile runs with the MDC keys
 * {@code controller}, {@code namespace}, {@code name} and {@code reconcileID}.
 *
 * <p>Lifecycle: {@link #start()} after the informers are started, or {@link #start(BooleanSupplier)}
 * with a gate the workers check before each reconcile (a leader's term); {@link #stop(Duration)}
 * lets reconciles in flight finish. A stopped controller can be started again (for example when
 * leadership comes back): it then reconciles every cached object once more. All time comes from
 * {@link ControllerOptions#timeSource()}, all threads from {@link ControllerOptions#threadFactory()}.
 */
public final class Controller<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    private static final long FIRST_SYNC_LOOK_NANOS = Duration.ofMillis(1).toNanos();
    private static final long LAST_SYNC_LOOK_NANOS = Duration.ofMillis(20).toNanos();

    private final ControllerOptions options;
    private final ResourceType<T> type;
    private final List<SharedIndexInformer<T>> primaries;
    /** A primary object as the primary informers cache it; holds the informers only, not this controller. */
    private final Function<ReconcileRequest, Optional<T>> lookup;
    private final EventFilter<T> filter;
    private final List<Watch<?>> watches;
    private final ReconcileHandler<T> handler;
    private final WriteTracker writes;
    private final ReadYourWrites readYourWrites;
    private final AtomicInteger active = new AtomicInteger();
    private final LongAdder reconciles = new LongAdder();
    private final LongAdder failedReconciles = new LongAdder();
    /**
     * Requests being reconciled, across runs: a run's work queue keeps its own workers apart, and
     * this keeps a restarted controller's workers away from a reconcile an earlier run abandoned
     * (still running after {@link #stop} gave up on it).
     */
    private final Set<ReconcileRequest> reconciling = ConcurrentHashMap.newKeySet();
    private final Object lifecycle = new Object();
    private volatile @Nullable ControllerRun run;

    Controller(ControllerBuilder<T> builder, ReconcileHandler<T> handler) {
        this.options = builder.options;
        this.type = builder.type;
        this.primaries = builder.primaries;
        this.lookup = lookup(builder.primaries);
        EventFilter<T> decoratedFilter = builder.filter;
        ReconcileHandler<T> decoratedHandler = handler;
        for (ControllerDecorator<T> decorator : builder.decorators) {
            decoratedFilter = Objects.requireNonNull(decorator.filter(decoratedFilter), "a decorator's filter");
            decoratedHandler = Objects.requireNonNull(decorator.handler(decoratedHandler, lookup),
                    "a decorator's handler");
        }
        this.filter = decoratedFilter;
        this.watches = List.copyOf(builder.watches);
        this.handler = decoratedHandler;
        this.writes = builder.writes;
        this.readYourWrites = new ReadYourWrites(writes, options.readYourWritesTimeout(), options.timeSource());
    }

    /** Starts describing a controller of {@code type}, whose objects {@code primary} caches. */
    public static <T extends HasMetadata> ControllerBuilder<T> builder(ControllerOptions options, ResourceType<T> type,
            SharedIndexInformer<T> primary) {
        return new ControllerBuilder<>(options, type, List.of(Objects.requireNonNull(primary, "primary")));
    }

    /**
     * Starts describing a controller of {@code type} whose objects several informers cache, for
     * example one per watched namespace. Their scopes should not overlap: an object cached by two
     * of them is still reconciled correctly (requests are deduplicated by the work queue), but
     * is notified twice.
     */
    public static <T extends HasMetadata> ControllerBuilder<T> builder(ControllerOptions options, ResourceType<T> type,
            List<SharedIndexInformer<T>> primaries) {
        return new ControllerBuilder<>(options, type, primaries);
    }

    /** The controller's name. */
    public String name() {
        return options.name();
    }

    /** The resource this controller reconciles. */
    public ResourceType<T> type() {
        return type;
    }

    /** The informers that cache this controller's primary objects, as given to {@link #builder}. */
    public List<SharedIndexInformer<T>> primaries() {
        return primaries;
    }

    /** Records this controller's writes for read-your-own-writes. */
    public WriteTracker writes() {
        return writes;
    }

    /** {@code client}, recording every successful write in {@link #writes()}. */
    public <R extends HasMetadata> ResourceClient<R> tracked(ResourceClient<R> client) {
        return new TrackingResourceClient<>(client, writes);
    }

    /** Queues {@code request} by hand (for example from a webhook). Ignored while stopped. */
    public void enqueue(ReconcileRequest request) {
        ControllerRun current = run;
        if (current != null) {
            current.queue().add(request);
        }
    }

    /** Requests waiting (not counting those delayed or in progress); 0 while stopped. */
    public int queueDepth() {
        ControllerRun current = run;
        return current == null ? 0 : current.queue().len();
    }

    /** True between a successful {@link #start()} and the end of {@link #stop}; never blocks. */
    public boolean isRunning() {
        return run != null;
    }

    /**
     * Reconciles running now: by this run's workers, and by workers an earlier {@link #stop} gave up
     * on (interrupted, and still running). Zero means nothing of this controller acts any more; never blocks.
     */
    public int reconcilesInFlight() {
        return reconciling.size();
    }

    /**
     * Reconciles this controller finished since it was built, across runs, whatever their result;
     * never blocks.
     */
    public long reconciles() {
        return reconciles.sum();
    }

    /**
     * Reconciles this controller finished since it was built that failed: threw (a
     * {@link TerminalException} included) or ran past the reconcile timeout. The others returned a
     * result (done, requeue or requeue after). Never blocks.
     */
    public long failedReconciles() {
        return failedReconciles.sum();
    }

    /**
     * Registers with the informers, waits until they and this controller's handlers have synced,
     * then starts the workers.
     *
     * @throws InformerSyncException when the caches do not sync within {@link ControllerOptions#cacheSyncTimeout()},
     *     naming each informer and its last error
     * @throws InterruptedException if interrupted while waiting
     */
    public void start() throws InterruptedException {
        start(() -> true);
    }

    /**
     * Like {@link #start()}, with a gate: every worker asks {@code mayReconcile} immediately before
     * each reconcile, and while it answers false (or throws) reconciles nothing. A request met
     * while the gate is closed is not lost: it is put back and tried again every
     * 100 ms, so it is reconciled once the gate opens, or dropped with
     * everything else queued when the controller stops. For leader election pass the term's
     * validity ({@code leadership::isValid}): a term that can no longer be sure of its lease then
     * starts no reconcile, whatever the elector's thread is doing.
     *
     * @throws InformerSyncException when the caches do not sync within {@link ControllerOptions#cacheSyncTimeout()},
     *     naming each informer and its last error
     * @throws InterruptedException if interrupted while waiting
     */
    public void start(BooleanSupplier mayReconcile) throws InterruptedException {
        Objects.requireNonNull(mayReconcile, "mayReconcile");
        synchronized (lifecycle) {
            if (run != null) {
                throw new IllegalStateException(name() + ": already running");
            }
            PriorityQueue<ReconcileRequest> queue = WorkQueue.<ReconcileRequest>builder().name(name())
                    .timeSource(options.timeSource()).rateLimiter(options.rateLimiter()).metrics(options.queueMetrics())
                    .prioritized(options.priorityQueue()).build();
            ControllerRun fresh = new ControllerRun(name(), queue, mayReconcile, ControllerRun.timeouts(options));
            run = fresh;
            for (SharedIndexInformer<T> primary : primaries) {
                fresh.registered(primary.addEventHandler(primaryHandler(queue)));
            }
            for (Watch<?> watch : watches) {
                fresh.registered(watch.register(queue));
            }
            awaitSynced(fresh);
            options.metrics().started(name(), options.workers());
            for (int i = 0; i < options.workers(); i++) {
                Thread worker = options.threadFactory().newThread(new Worker(this, fresh));
                worker.setName("controller-" + name() + "-worker-" + i);
                fresh.started(worker);
                worker.start();
            }
            log.info("{}: started with {} workers", name(), options.workers());
        }
    }

    /**
     * Waits until every handler has been told its informer's initial list. Looks again 1 ms after
     * the first look, then twice as late each time up to 20 ms: a restart whose caches are synced
     * already (the handlers only replay them) starts its workers within a few milliseconds of the
     * replay's end, and a long sync is looked at 50 times a second.
     */
    private void awaitSynced(ControllerRun fresh) throws InterruptedException {
        BooleanSupplier allSynced = () -> fresh.registrations().stream().allMatch(HandlerRegistration::hasSynced);
        TimeSource time = options.timeSource();
        long deadline = time.deadlineAfter(options.cacheSyncTimeout());
        boolean synced = allSynced.getAsBoolean();
        for (long step = FIRST_SYNC_LOOK_NANOS; !synced && deadline - time.nanoTime() > 0;
                step = Math.min(2 * step, LAST_SYNC_LOOK_NANOS)) {
            long now = time.nanoTime();
            long lookAt = deadline - now < step ? deadline : now + step;
            synced = Poll.until(allSynced, lookAt, time, Duration.ofNanos(step));
        }
        if (!synced) {
            List<SharedIndexInformer<?>> informers = new ArrayList<>(primaries);
            watches.forEach(watch -> informers.add(watch.informer()));
            stopLocked(Duration.ZERO);
            throw InformerSyncException.of(name(), options.cacheSyncTimeout(), informers);
        }
    }

    /**
     * Stops taking new work, lets reconciles in flight finish for up to {@code drain}, and stops
     * the workers. Returns true when everything finished in time.
     */
    public boolean stop(Duration drain) throws InterruptedException {
        synchronized (lifecycle) {
            return stopLocked(drain);
        }
    }

    private boolean stopLocked(Duration drain) throws InterruptedException {
        ControllerRun current = run;
        if (current == null) {
            return true;
        }
        boolean drained = current.stop(drain, options.timeSource());
        run = null;
        log.info("{}: stopped{}", name(), drained ? "" : " (some reconciles were still running)");
        return drained;
    }

    private ResourceEventHandler<T> primaryHandler(PriorityQueue<ReconcileRequest> target) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object, boolean isInInitialList) {
                if (filter.onAdd(object)) {
                    target.add(ReconcileRequest.of(object), Watch.priorityOfAdd(isInInitialList));
                }
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                if (filter.onUpdate(oldObject, newObject)) {
                    target.add(ReconcileRequest.of(newObject), Watch.priorityOfUpdate(oldObject, newObject));
                }
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                readYourWrites.forget(ReconcileRequest.of(object));
                if (filter.onDelete(object)) {
                    target.add(ReconcileRequest.of(object));
                }
            }
        };
    }

    // ---- for the workers

    ControllerOptions options() {
        return options;
    }

    ReconcileHandler<T> handler() {
        return handler;
    }

    ReadYourWrites readYourWrites() {
        return readYourWrites;
    }

    /** Takes {@code request} for a reconcile; false while a worker of any run reconciles it. */
    boolean hold(ReconcileRequest request) {
        return reconciling.add(request);
    }

    void release(ReconcileRequest request) {
        reconciling.remove(request);
    }

    /** Adds {@code delta} to the busy workers and returns their number. */
    int activeWorkers(int delta) {
        return active.addAndGet(delta);
    }

    /** Counts a finished reconcile for {@link #reconciles()} and {@link #failedReconciles()}. */
    void finished(boolean failed) {
        reconciles.increment();
        if (failed) {
            failedReconciles.increment();
        }
    }

    /** The primary object of {@code request} as the first informer that caches it has it. */
    Optional<T> cached(ReconcileRequest request) {
        return lookup.apply(request);
    }

    /** The object of a request in the first of {@code primaries} that caches it. */
    private static <T extends HasMetadata> Function<ReconcileRequest, Optional<T>> lookup(
            List<SharedIndexInformer<T>> primaries) {
        return request -> {
            for (SharedIndexInformer<T> primary : primaries) {
                Optional<T> object = primary.indexer().get(request.key());
                if (object.isPresent()) {
                    return object;
                }
            }
            return Optional.empty();
        };
    }
}

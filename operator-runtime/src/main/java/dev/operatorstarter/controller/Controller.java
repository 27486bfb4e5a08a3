package dev.operatorstarter.controller;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.workqueue.RateLimitingQueue;
import dev.operatorstarter.workqueue.WorkQueue;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Reconciles one primary resource: notifications from its informer (filtered), from owned
 * resources (mapped to their controlling owner) and from mapped watches become {@link ReconcileRequest}s
 * in a rate-limited work queue, and {@link ControllerOptions#workers()} workers run the
 * {@link ReconcileHandler} (controller-runtime's controller).
 *
 * <p>Guarantees: one request is never reconciled by two workers at once (across a restart too: a
 * restarted controller waits for a reconcile that {@link #stop} abandoned), and a change that
 * arrives during its reconcile leads to one more reconcile afterwards; an exception means a
 * rate-limited retry with no attempt limit; a {@link TerminalException} is not retried; nothing
 * thrown, {@link Error}s included, stops a worker, and neither does an interrupt: workers end only
 * when the controller stops (an interrupt flag a reconcile leaves set is cleared after it, and the
 * {@linkplain ControllerOptions#reconcileTimeout() timeout}'s interrupt never reaches a later
 * reconcile); a reconcile never sees, in the primary
 * informer's cache, an object older than this controller's last write to it through a
 * {@linkplain #tracked tracked} client (waiting up to {@link ControllerOptions#readYourWritesTimeout()}).
 * Each reconcile runs with the MDC keys {@code controller}, {@code namespace}, {@code name} and
 * {@code reconcileID}.
 *
 * <p>Lifecycle: {@link #start()} after the informers are started, or {@link #start(BooleanSupplier)}
 * with a gate the workers check before each reconcile (a leader's term); {@link #stop(Duration)}
 * lets reconciles in flight finish. A stopped controller can be started again (for example when
 * leadership comes back): it then reconciles every cached object once more.
 */
public final class Controller<T extends HasMetadata> {

    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    private static final Duration STALE_RETRY = Duration.ofMillis(50);
    private static final Duration HELD_RETRY = Duration.ofMillis(50);
    private static final Duration GATE_RETRY = Duration.ofMillis(100);

    private record Watch<O extends HasMetadata>(SharedIndexInformer<O> informer, Function<O, Collection<ReconcileRequest>> mapper) {
    }

    private final ControllerOptions options;
    private final ResourceType<T> type;
    private final List<SharedIndexInformer<T>> primaries;
    private final EventFilter<T> filter;
    private final List<Watch<?>> watches;
    private final ReconcileHandler<T> handler;
    private final WriteTracker writes;
    private final Map<ReconcileRequest, Long> staleSince = new ConcurrentHashMap<>();
    private final AtomicInteger active = new AtomicInteger();
    /**
     * Requests being reconciled, across runs: a run's work queue keeps its own workers apart, and
     * this keeps a restarted controller's workers away from a reconcile an earlier run abandoned
     * (still running after {@link #stop} gave up on it).
     */
    private final Set<ReconcileRequest> reconciling = ConcurrentHashMap.newKeySet();
    private final Object lifecycle = new Object();
    private volatile @Nullable RateLimitingQueue<ReconcileRequest> queue;
    private final List<HandlerRegistration> registrations = new ArrayList<>();
    private final List<Thread> workers = new ArrayList<>();
    private @Nullable ScheduledExecutorService timeouts;
    /** Set when the current run stops: workers then drop what is still queued instead of reconciling it. */
    private volatile AtomicBoolean stopping = new AtomicBoolean();

    private Controller(Builder<T> builder, ReconcileHandler<T> handler) {
        this.options = builder.options;
        this.type = builder.type;
        this.primaries = List.copyOf(builder.primaries);
        this.filter = builder.filter;
        this.watches = List.copyOf(builder.watches);
        this.handler = handler;
        this.writes = new WriteTracker(type);
    }

    /** Starts describing a controller of {@code type}, whose objects {@code primary} caches. */
    public static <T extends HasMetadata> Builder<T> builder(ControllerOptions options, ResourceType<T> type,
            SharedIndexInformer<T> primary) {
        return new Builder<>(options, type, List.of(Objects.requireNonNull(primary, "primary")));
    }

    /**
     * Starts describing a controller of {@code type} whose objects several informers cache, for
     * example one per watched namespace. Their scopes should not overlap: an object cached by two
     * of them is still reconciled correctly (requests are deduplicated by the work queue), but
     * is notified twice.
     */
    public static <T extends HasMetadata> Builder<T> builder(ControllerOptions options, ResourceType<T> type,
            List<SharedIndexInformer<T>> primaries) {
        if (primaries.isEmpty()) {
            throw new IllegalArgumentException("a controller needs at least one primary informer");
        }
        return new Builder<>(options, type, primaries);
    }

    /** The controller's name. */
    public String name() {
        return options.name();
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
        RateLimitingQueue<ReconcileRequest> current = queue;
        if (current != null) {
            current.add(request);
        }
    }

    /** Requests waiting (not counting those delayed or in progress); 0 while stopped. */
    public int queueDepth() {
        RateLimitingQueue<ReconcileRequest> current = queue;
        return current == null ? 0 : current.len();
    }

    /** True between a successful {@link #start()} and the end of {@link #stop}; never blocks. */
    public boolean isRunning() {
        return queue != null;
    }

    /**
     * Registers with the informers, waits until they and this controller's handlers have synced,
     * then starts the workers.
     *
     * @throws IllegalStateException when the caches do not sync in time, naming each informer and its last error
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
     * @throws IllegalStateException when the caches do not sync in time, naming each informer and its last error
     * @throws InterruptedException if interrupted while waiting
     */
    public void start(BooleanSupplier mayReconcile) throws InterruptedException {
        Objects.requireNonNull(mayReconcile, "mayReconcile");
        synchronized (lifecycle) {
            if (queue != null) {
                throw new IllegalStateException(name() + ": already running");
            }
            RateLimitingQueue<ReconcileRequest> fresh = WorkQueue.<ReconcileRequest>builder().name(name()).timeSource(options.timeSource())
                    .rateLimiter(options.rateLimiter()).metrics(options.queueMetrics()).build();
            queue = fresh;
            AtomicBoolean runStopping = new AtomicBoolean();
            stopping = runStopping;
            for (SharedIndexInformer<T> primary : primaries) {
                registrations.add(primary.addEventHandler(primaryHandler(fresh)));
            }
            for (Watch<?> watch : watches) {
                registrations.add(register(watch, fresh));
            }
            awaitSynced();
            // Each run's workers get the run's own timer, as they get its queue: a worker that
            // outlives stop() never reads a field another run has since replaced.
            ScheduledExecutorService runTimeouts = options.reconcileTimeout().isZero() ? null
                    : Executors.newSingleThreadScheduledExecutor(task -> {
                        Thread thread = new Thread(task, "controller-" + name() + "-timeouts");
                        thread.setDaemon(true);
                        return thread;
                    });
            timeouts = runTimeouts;
            options.metrics().started(name(), options.workers());
            for (int i = 0; i < options.workers(); i++) {
                Thread worker = options.threadFactory().newThread(() -> work(fresh, runStopping, mayReconcile, runTimeouts));
                worker.setName("controller-" + name() + "-worker-" + i);
                workers.add(worker);
                worker.start();
            }
            log.info("{}: started with {} workers", name(), options.workers());
        }
    }

    private void awaitSynced() throws InterruptedException {
        long deadline = System.nanoTime() + options.cacheSyncTimeout().toNanos();
        List<SharedIndexInformer<?>> informers = new ArrayList<>(primaries);
        watches.forEach(watch -> informers.add(watch.informer()));
        while (!registrations.stream().allMatch(HandlerRegistration::hasSynced)) {
            if (System.nanoTime() > deadline) {
                StringBuilder waiting = new StringBuilder();
                for (SharedIndexInformer<?> informer : informers) {
                    if (!informer.hasSynced()) {
                        waiting.append(waiting.length() == 0 ? "" : "; ").append(informer.name()).append(" (")
                                .append(informer.lastError().map(Throwable::getMessage).orElse("no error yet"))
                                .append(')');
                    }
                }
                stopLocked(Duration.ZERO);
                throw new IllegalStateException(name() + ": caches not synced after " + options.cacheSyncTimeout()
                        + (waiting.length() == 0 ? "" : ": " + waiting));
            }
            TimeUnit.MILLISECONDS.sleep(20);
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
        RateLimitingQueue<ReconcileRequest> current = queue;
        if (current == null) {
            return true;
        }
        stopping.set(true);
        registrations.forEach(HandlerRegistration::remove);
        registrations.clear();
        boolean drained = current.shutDownWithDrain(drain);
        long deadline = System.nanoTime() + Math.max(drain.toNanos(), TimeUnit.SECONDS.toNanos(1));
        for (Thread worker : workers) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                worker.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            if (worker.isAlive()) {
                worker.interrupt();
                drained = false;
            }
        }
        workers.clear();
        if (timeouts != null) {
            timeouts.shutdownNow();
            timeouts = null;
        }
        queue = null;
        log.info("{}: stopped{}", name(), drained ? "" : " (some reconciles were still running)");
        return drained;
    }

    private ResourceEventHandler<T> primaryHandler(RateLimitingQueue<ReconcileRequest> target) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T object, boolean isInInitialList) {
                if (filter.onAdd(object)) {
                    target.add(ReconcileRequest.of(object));
                }
            }

            @Override
            public void onUpdate(T oldObject, T newObject) {
                if (filter.onUpdate(oldObject, newObject)) {
                    target.add(ReconcileRequest.of(newObject));
                }
            }

            @Override
            public void onDelete(T object, boolean finalStateUnknown) {
                writes.forget(ReconcileRequest.of(object));
                staleSince.remove(ReconcileRequest.of(object));
                if (filter.onDelete(object)) {
                    target.add(ReconcileRequest.of(object));
                }
            }
        };
    }

    private <O extends HasMetadata> HandlerRegistration register(Watch<O> watch, RateLimitingQueue<ReconcileRequest> target) {
        return watch.informer().addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(O object, boolean isInInitialList) {
                enqueueAll(object);
            }

            @Override
            public void onUpdate(O oldObject, O newObject) {
                enqueueAll(oldObject);
                enqueueAll(newObject);
            }

            @Override
            public void onDelete(O object, boolean finalStateUnknown) {
                enqueueAll(object);
            }

            private void enqueueAll(O object) {
                watch.mapper().apply(object).forEach(target::add);
            }
        });
    }

    /** A worker's loop: it ends only when its queue has shut down and has nothing more to hand out. */
    private void work(RateLimitingQueue<ReconcileRequest> source, AtomicBoolean stopping, BooleanSupplier mayReconcile,
            @Nullable ScheduledExecutorService timeouts) {
        while (true) {
            Optional<ReconcileRequest> next;
            try {
                next = source.get();
            } catch (InterruptedException e) {
                if (source.isShuttingDown()) {
                    return; // stop() interrupts only workers that outlived the drain
                }
                continue; // a stray interrupt (not ours to act on) must not end the worker
            }
            if (next.isEmpty()) {
                return;
            }
            ReconcileRequest request = next.get();
            try {
                if (!stopping.get()) {
                    process(source, request, mayReconcile, timeouts);
                }
            } finally {
                Thread.interrupted(); // an interrupt a reconcile left set belongs to that reconcile
                source.done(request);
            }
        }
    }

    private void process(RateLimitingQueue<ReconcileRequest> source, ReconcileRequest request, BooleanSupplier mayReconcile,
            @Nullable ScheduledExecutorService timeouts) {
        if (writes.isStale(request, cached(request))) {
            long now = System.nanoTime();
            long since = staleSince.computeIfAbsent(request, r -> now);
            if (now - since < options.readYourWritesTimeout().toNanos()) {
                source.addAfter(request, STALE_RETRY); // the cache has not seen our last write yet
                return;
            }
            log.warn("{}: the cache still lags this controller's last write to {} after {}; reconciling anyway",
                    name(), request, options.readYourWritesTimeout());
        }
        staleSince.remove(request);
        if (!reconciling.add(request)) {
            log.debug("{}: {} is still being reconciled by a worker of an earlier run; trying again in {}", name(),
                    request, HELD_RETRY);
            source.addAfter(request, HELD_RETRY);
            return;
        }
        try {
            if (!isOpen(mayReconcile)) {
                log.debug("{}: not reconciling {} now (the gate is closed); trying again in {}", name(), request,
                        GATE_RETRY);
                source.addAfter(request, GATE_RETRY);
                return;
            }
            reconcile(source, request, timeouts);
        } finally {
            reconciling.remove(request);
        }
    }

    private boolean isOpen(BooleanSupplier mayReconcile) {
        try {
            return mayReconcile.getAsBoolean();
        } catch (RuntimeException e) {
            log.warn("{}: the reconcile gate failed, taken as closed: {}", name(), e.toString(), e);
            return false;
        }
    }

    private void reconcile(RateLimitingQueue<ReconcileRequest> source, ReconcileRequest request,
            @Nullable ScheduledExecutorService timeouts) {
        MDC.put("controller", name());
        MDC.put("namespace", request.namespace());
        MDC.put("name", request.name());
        MDC.put("reconcileID", UUID.randomUUID().toString());
        options.metrics().activeWorkers(name(), active.incrementAndGet());
        long started = System.nanoTime();
        String outcome = "error";
        Timeout timeout = Timeout.arm(timeouts, options.reconcileTimeout());
        try {
            ReconcileResult result = handler.reconcile(request);
            if (timeout.expired()) {
                throw new java.util.concurrent.TimeoutException("reconcile took longer than " + options.reconcileTimeout());
            }
            if (result instanceof ReconcileResult.RequeueAfter after) {
                source.forget(request);
                source.addAfter(request, after.delay());
                outcome = "requeue_after";
            } else if (result == ReconcileResult.requeue()) {
                source.addRateLimited(request);
                outcome = "requeue";
            } else {
                source.forget(request);
                outcome = "success";
            }
        } catch (TerminalException e) {
            source.forget(request);
            options.metrics().terminalError(name());
            options.metrics().error(name()); // controller-runtime counts terminal errors among all errors too
            log.error("{}: reconcile of {} failed for good (not retried): {}", name(), request, e.getMessage(), e);
        } catch (Exception e) {
            source.addRateLimited(request);
            options.metrics().error(name());
            log.warn("{}: reconcile of {} failed (retry {}): {}", name(), request, source.numRequeues(request),
                    e.toString(), e);
        } catch (Throwable e) {
            source.addRateLimited(request);
            options.metrics().panic(name());
            options.metrics().error(name());
            log.error("{}: reconcile of {} threw {}; the worker goes on", name(), request, e.toString(), e);
        } finally {
            timeout.disarm();
            options.metrics().reconciled(name(), outcome, Duration.ofNanos(System.nanoTime() - started));
            options.metrics().activeWorkers(name(), active.decrementAndGet());
            MDC.remove("controller");
            MDC.remove("namespace");
            MDC.remove("name");
            MDC.remove("reconcileID");
        }
    }

    /** The primary object of {@code request} as the first informer that caches it has it. */
    private Optional<T> cached(ReconcileRequest request) {
        for (SharedIndexInformer<T> primary : primaries) {
            Optional<T> object = primary.indexer().get(request.key());
            if (object.isPresent()) {
                return object;
            }
        }
        return Optional.empty();
    }

    /**
     * Interrupts the worker when a reconcile outlives its timeout; never leaks the interrupt: the
     * timer interrupts only while holding this object's monitor and only while the reconcile runs,
     * and {@link #disarm} takes the monitor, so an interrupt the timer decided on is delivered
     * before disarm clears it, never after.
     */
    private static final class Timeout {
        private enum State { RUNNING, DONE, EXPIRED }

        private State state = State.RUNNING; // guarded by this
        private @Nullable ScheduledFuture<?> task;

        static Timeout arm(@Nullable ScheduledExecutorService scheduler, Duration timeout) {
            Timeout armed = new Timeout();
            if (scheduler != null && !timeout.isZero()) {
                Thread worker = Thread.currentThread();
                try {
                    armed.task = scheduler.schedule(() -> armed.expire(worker), timeout.toNanos(), TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException e) {
                    // the run stopped: this worker outlived its drain and is about to be interrupted
                }
            }
            return armed;
        }

        private synchronized void expire(Thread worker) {
            if (state == State.RUNNING) {
                state = State.EXPIRED;
                worker.interrupt();
            }
        }

        synchronized boolean expired() {
            return state == State.EXPIRED;
        }

        /** Called by the worker when the reconcile ends; clears the timeout's interrupt if it fired. */
        void disarm() {
            synchronized (this) {
                if (state == State.RUNNING) {
                    state = State.DONE;
                } else if (state == State.EXPIRED) {
                    Thread.interrupted();
                }
            }
            if (task != null) {
                task.cancel(false);
            }
        }
    }

    /** Describes a controller's watches before it is built. */
    public static final class Builder<T extends HasMetadata> {
        private final ControllerOptions options;
        private final ResourceType<T> type;
        private final List<SharedIndexInformer<T>> primaries;
        private EventFilter<T> filter = EventFilter.all();
        private final List<Watch<?>> watches = new ArrayList<>();

        private Builder(ControllerOptions options, ResourceType<T> type, List<SharedIndexInformer<T>> primaries) {
            this.options = Objects.requireNonNull(options, "options");
            this.type = Objects.requireNonNull(type, "type");
            this.primaries = List.copyOf(primaries);
        }

        /** Only primary notifications that pass {@code filter} become requests. */
        public Builder<T> withFilter(EventFilter<T> filter) {
            this.filter = Objects.requireNonNull(filter, "filter");
            return this;
        }

        /**
         * Reconciles the controlling owner (an owner reference with {@code controller: true} of
         * the primary's kind) whenever an object {@code owned} caches changes or is deleted.
         */
        public <O extends HasMetadata> Builder<T> owns(SharedIndexInformer<O> owned) {
            String kind = type.kind();
            String group = type.group();
            watches.add(new Watch<O>(owned, object -> {
                List<ReconcileRequest> owners = new ArrayList<>(1);
                List<OwnerReference> references = object.getMetadata().getOwnerReferences();
                if (references != null) {
                    for (OwnerReference reference : references) {
                        if (Boolean.TRUE.equals(reference.getController()) && Objects.equals(kind, reference.getKind())
                                && group.equals(groupOf(reference.getApiVersion()))) {
                            owners.add(new ReconcileRequest(type.namespaced() ? object.getMetadata().getNamespace() : "",
                                    reference.getName()));
                        }
                    }
                }
                return owners;
            }));
            return this;
        }

        /** Reconciles the requests {@code mapper} derives from each object {@code informer} caches. */
        public <O extends HasMetadata> Builder<T> watches(SharedIndexInformer<O> informer,
                Function<O, Collection<ReconcileRequest>> mapper) {
            watches.add(new Watch<>(informer, mapper));
            return this;
        }

        public Controller<T> build(ReconcileHandler<T> handler) {
            return new Controller<>(this, Objects.requireNonNull(handler, "handler"));
        }

        private static String groupOf(String apiVersion) {
            if (apiVersion == null) {
                return "";
            }
            int slash = apiVersion.indexOf('/');
            return slash < 0 ? "" : apiVersion.substring(0, slash);
        }
    }
}

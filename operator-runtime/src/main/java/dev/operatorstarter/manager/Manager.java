package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.client.discovery.ResourceLookup.NotServed;
import dev.operatorstarter.client.discovery.ResourceLookup;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.internal.Poll;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.manager.ManagerOptions.OnMissingResource;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operator (controller-runtime's manager): owns the informer factory, the optional event
 * broadcaster and leader elector, and the controllers, and runs them in Kubernetes order: start
 * the event broadcaster → check that the API server serves every informer's resource → start the
 * informers → wait for the caches → campaign for leadership (or,
 * without election, go on) → start the controllers. {@link #close()} stops in reverse: the
 * controllers stop taking work and finish what is in flight (up to
 * {@link ManagerOptions#shutdownTimeout()}), the lease is released, the informers and the event
 * broadcaster stop.
 *
 * <p>A resource the server does not serve (a CRD not installed) would keep its informer from ever
 * syncing, so before the informers start the manager asks the server's discovery about each
 * resource, one request each with {@link ManagerOptions#discoveryTimeout()}. A resource not served
 * fails the start at once ({@link ResourceNotServedException}), or, with
 * {@link OnMissingResource#WAIT}, is waited for ({@link #missingResources()}). A server that could
 * not be asked (5xx, no answer in time) proves nothing: the manager logs it and starts the
 * informers, whose errors then tell. A resource that goes away after the start (its CRD deleted) is
 * the informers' to handle: their watches and lists fail and are retried with backoff, the cache
 * keeps what it had, and they sync again once the resource is back.
 *
 * <p>Leadership: the controllers run only during a term, and every worker checks the term's
 * validity before each reconcile. When a term ends, the controllers stop at once (reconciles still
 * running after a second are interrupted, since another replica may lead already); then the
 * manager campaigns again, or, with {@link Builder#onLostLeadership}, stops for good and runs that
 * hook (to end the process, so the pod restarts with a clean state).
 *
 * <p>Sharding ({@link Builder#sharding}, which needs leader election): the controllers added with
 * {@link #addSharded} are this replica's shard's. They run in the terms of the replica's own member
 * Lease, which it campaigns for next to the leader election once the caches synced, each worker
 * checking that term's validity before each reconcile; the leader runs the ring's assigner in each
 * of its terms, after its own controllers. {@link #close()} stops the shard's controllers first and
 * releases the member Lease only if they all finished (else leaves it to expire), then goes on as
 * without sharding.
 *
 * <p>Usage: build it, make informers with {@link #informers()}, {@link #add} controllers built on
 * them, then {@link #start()}. The client is the caller's: close it after the manager. A manager
 * runs once; it cannot start again after {@link #close()} (informers cannot be restarted).
 * Thread-safe.
 */
public final class Manager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    /** How often a manager waiting for missing resources ({@link OnMissingResource#WAIT}) asks the server again. */
    public static final Duration MISSING_RESOURCE_POLL = Duration.ofSeconds(2);

    private enum State { NEW, STARTED, CLOSED }

    private final KubernetesClient client;
    private final SharedInformerFactory informers;
    private final @Nullable EventBroadcaster events;
    private final @Nullable LeaderElector elector;
    private final ControllerGroup controllers;
    private final @Nullable Sharding sharding;
    private final ControllerGroup shards;
    private final ManagerOptions options;
    private final Object lock = new Object();
    private State state = State.NEW; // guarded by lock
    private @Nullable Thread startup; // guarded by lock
    private volatile List<NotServed> missing = List.of();

    private Manager(Builder builder) {
        this.client = builder.client;
        this.options = builder.options;
        this.sharding = builder.sharding;
        this.informers = builder.informers != null ? builder.informers
                : sharding != null ? sharding.informers() : new SharedInformerFactory(client, InformerOptions.defaults());
        this.events = builder.events;
        this.controllers = new ControllerGroup(options.shutdownTimeout(), builder.onLostLeadership,
                options.timeSource(), false);
        this.shards = new ControllerGroup(options.shutdownTimeout(), null, options.timeSource(), true);
        if (sharding != null) {
            controllers.addTermTask(sharding.assigner());
        }
        this.elector = builder.elector == null ? null
                : Objects.requireNonNull(builder.elector.apply(controllers), "the leader elector factory returned null");
    }

    /** Starts describing a manager that works through {@code client}. */
    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** The client the manager's informers and controllers use. */
    public KubernetesClient client() {
        return client;
    }

    /** The informer factory: make the controllers' informers here, before {@link #start()}. */
    public SharedInformerFactory informers() {
        return informers;
    }

    /** The event broadcaster, when one was given. */
    public Optional<EventBroadcaster> events() {
        return Optional.ofNullable(events);
    }

    /** The leader elector, when the manager elects a leader. */
    public Optional<LeaderElector> leaderElector() {
        return Optional.ofNullable(elector);
    }

    /**
     * Adds a controller, started and stopped with the others; {@code resource} says what it
     * reconciles (for {@link #controllers()}). Add every controller before {@link #start()}.
     *
     * @throws IllegalStateException once the manager has started
     */
    public Manager add(Controller<?> controller, String resource) {
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(resource, "resource");
        synchronized (lock) {
            if (state != State.NEW) {
                throw new IllegalStateException("add controller " + controller.name() + " before the manager starts");
            }
            controllers.add(controller, resource);
        }
        return this;
    }

    /**
     * Adds a controller of this replica's shard ({@linkplain ControllerStatus#sharded() sharded}),
     * started and stopped with the terms of its member Lease; {@code resource} says what it
     * reconciles. Build it on informers over {@link Sharding#narrow narrowed} scopes and
     * {@code decoratedBy(sharding.decorator(...))}. Add every controller before {@link #start()}.
     * Its primary cache's size is reported ({@link Sharding#adopt}).
     *
     * @throws IllegalStateException without {@link Builder#sharding}, or once the manager has started
     * @throws IllegalArgumentException when its primary informers were not made on the sharding's
     *     factory, or two of them cover one namespace
     */
    public Manager addSharded(Controller<?> controller, String resource) {
        Objects.requireNonNull(controller, "controller");
        Objects.requireNonNull(resource, "resource");
        synchronized (lock) {
            if (sharding == null) {
                throw new IllegalStateException("add sharded controller " + controller.name() + " to a manager with "
                        + "sharding: Manager.builder(client).sharding(...)");
            }
            if (state != State.NEW) {
                throw new IllegalStateException("add controller " + controller.name() + " before the manager starts");
            }
            sharding.adopt(controller);
            shards.add(controller, resource);
        }
        return this;
    }

    /** The sharding, when this replica is a member of a ring. */
    public Optional<Sharding> sharding() {
        return Optional.ofNullable(sharding);
    }

    /** Every controller's state, the leader's first, then the shard's; cheap, never calls the API server. */
    public List<ControllerStatus> controllers() {
        List<ControllerStatus> all = new ArrayList<>(controllers.status());
        all.addAll(shards.status());
        return all;
    }

    /** True while this replica's (leader-gated) controllers should run: it leads, or there is no election. */
    public boolean isActive() {
        return controllers.isActive();
    }

    /** True while this replica's sharded controllers should run: it is in a term of its member Lease. */
    public boolean isMember() {
        return sharding != null && shards.isActive();
    }

    /** True between {@link #start()} and {@link #close()}. */
    public boolean isRunning() {
        synchronized (lock) {
            return state == State.STARTED;
        }
    }

    /**
     * Starts the event broadcaster, checks that the server serves every informer's resource
     * (waiting for them with {@link OnMissingResource#WAIT}), starts the informers, waits until
     * every informer has synced, then campaigns for leadership or, without election, starts the
     * controllers; returns then (the elector campaigns on its own thread).
     *
     * @throws ResourceNotServedException when the server does not serve a resource an informer
     *     needs (with {@link OnMissingResource#FAIL}); the manager stays started: close it
     * @throws InformerSyncException when the caches do not sync within {@link ManagerOptions#cacheSyncTimeout()};
     *     the manager stays started (the informers keep trying): close it
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException when the manager started or closed before, or the sharding
     *     refuses to start (a registered resource whose controller is not decorated)
     */
    public void start() throws InterruptedException {
        synchronized (lock) {
            begin();
        }
        if (!awaitResources()) {
            return; // closed while waiting
        }
        startInformers();
        informers.waitForCacheSync(options.cacheSyncTimeout());
        log.info("{} informer caches synced", informers.informers().size());
        run();
    }

    /**
     * Like {@link #start()}, without blocking: a background thread waits for the caches (logging
     * each time {@link ManagerOptions#cacheSyncTimeout()} passes, while the informers keep trying),
     * then goes on as {@code start()} does. {@link #close()} ends the wait. The check that the
     * server serves every resource, and the informers' start, still run here, before returning,
     * unless the manager is to {@linkplain OnMissingResource#WAIT wait} for the resources (then
     * the background thread does both).
     *
     * @throws ResourceNotServedException when the server does not serve a resource an informer
     *     needs (with {@link OnMissingResource#FAIL}); the manager stays started: close it
     */
    public void startInBackground() {
        synchronized (lock) {
            begin();
        }
        if (options.onMissingResource() == OnMissingResource.FAIL) {
            checkResources();
            startInformers(); // before returning, as without the check: their caches fill meanwhile
        }
        synchronized (lock) {
            if (state != State.STARTED) {
                return; // closed meanwhile
            }
            Thread thread = options.threadFactory().newThread(this::syncThenRun);
            thread.setName("operator-startup");
            startup = thread;
            thread.start();
        }
    }

    private void begin() {
        if (state == State.CLOSED) {
            throw new IllegalStateException("the manager was closed and cannot start again (informers cannot "
                    + "be restarted): build a new one");
        }
        if (state == State.STARTED) {
            throw new IllegalStateException("the manager has started already");
        }
        state = State.STARTED;
        if (events != null) {
            events.start();
        }
    }

    private void startInformers() {
        synchronized (lock) {
            if (state == State.STARTED) {
                informers.start();
            }
        }
    }

    /** The resources the server did not serve when last asked; empty once all are served (or never checked). */
    public List<NotServed> missingResources() {
        return missing;
    }

    /**
     * Checks the resources: with {@code FAIL} once, throwing for any not served; with {@code WAIT}
     * until all are served, logging each time the cache-sync timeout passes.
     *
     * @return false when the manager was closed while waiting
     */
    private boolean awaitResources() throws InterruptedException {
        if (options.onMissingResource() == OnMissingResource.FAIL) {
            checkResources();
            return true;
        }
        TimeSource time = options.timeSource();
        while (isRunning()) {
            if (Poll.until(() -> !isRunning() || lookUpResources().isEmpty(),
                    time.deadlineAfter(options.cacheSyncTimeout()), time, MISSING_RESOURCE_POLL)) {
                return isRunning();
            }
            log.warn("Start-up still waits, after {}, until the API server serves what the informers need: {}",
                    options.cacheSyncTimeout(), describe(missing));
        }
        return false;
    }

    private void checkResources() {
        List<NotServed> notServed = lookUpResources();
        if (!notServed.isEmpty()) {
            throw new ResourceNotServedException(notServed, server());
        }
    }

    /** Asks the server about every informer's resource; records and returns those it does not serve. */
    private List<NotServed> lookUpResources() {
        List<NotServed> notServed = new ArrayList<>();
        for (ResourceLookup answer : client.discovery().lookup(informers.resources(), options.discoveryTimeout())) {
            if (answer instanceof NotServed no) {
                notServed.add(no);
            } else if (answer instanceof ResourceLookup.Unanswered unanswered) {
                // not proof of anything: let the informer try, its errors are reported as they come
                log.warn("Could not ask the API server whether it serves {}; starting its informer anyway: {}",
                        answer.resource().groupResource(), unanswered.cause().getMessage());
            }
        }
        List<NotServed> before = missing;
        missing = List.copyOf(notServed);
        if (options.onMissingResource() == OnMissingResource.WAIT && !notServed.isEmpty() && !notServed.equals(before)) {
            log.warn("Start-up waits until the API server serves what the informers need: {}", describe(notServed));
        }
        return notServed;
    }

    private String describe(List<NotServed> notServed) {
        return notServed.stream().map(each -> each.describe(server())).reduce((a, b) -> a + "; " + b).orElse("nothing");
    }

    private String server() {
        return new RedactedUri(client.config().server()).toString(); // printed in messages: no user info
    }

    private void syncThenRun() {
        if (options.onMissingResource() == OnMissingResource.WAIT) {
            try {
                if (!awaitResources()) {
                    return; // closed
                }
            } catch (InterruptedException e) {
                return; // closed
            }
            startInformers();
        } // with FAIL, checked and started before this thread
        while (isRunning()) {
            try {
                informers.waitForCacheSync(options.cacheSyncTimeout());
                log.info("{} informer caches synced", informers.informers().size());
                run();
                return;
            } catch (InformerSyncException e) {
                log.error("{}; still waiting", e.getMessage());
            } catch (InterruptedException e) {
                return; // closed
            } catch (RuntimeException e) {
                log.error("The operator did not start: {}", e.getMessage(), e); // the sharding refused to start
                return;
            }
        }
    }

    private void run() {
        if (elector != null) {
            synchronized (lock) { // so close() cannot slip between the check and the start
                if (state == State.STARTED) {
                    if (sharding != null) {
                        sharding.start(shards); // the member's share is cached: its Lease may appear
                    }
                    elector.start();
                }
            }
        } else if (isRunning()) {
            controllers.startAll(); // not under the lock: close() ends a start in progress
        }
    }

    /**
     * Stops for good, in reverse order: ends a background start-up's wait; with sharding, stops the
     * shard's controllers, then releases the member Lease if they all finished (so the assigner moves
     * their objects at once) or else leaves it to expire; stops the leader's controllers and the
     * assigner (reconciles in flight get what is left of {@link ManagerOptions#shutdownTimeout()},
     * which both groups share), closes the elector (which releases the lease when so configured,
     * once nothing runs here any more), the informers and the event broadcaster. Idempotent; does
     * not close the client.
     */
    @Override
    public void close() {
        Thread waiting;
        synchronized (lock) {
            if (state == State.CLOSED) {
                return;
            }
            boolean started = state == State.STARTED;
            state = State.CLOSED;
            waiting = startup;
            startup = null;
            if (!started) {
                if (sharding != null) {
                    sharding.close(); // never started: nothing to release
                }
                informers.close();
                return;
            }
        }
        if (waiting != null) {
            waiting.interrupt();
        }
        TimeSource time = options.timeSource();
        long deadline = time.deadlineAfter(options.shutdownTimeout());
        if (sharding != null) {
            if (shards.close(options.shutdownTimeout())) {
                sharding.close();
            } else {
                log.warn("Some reconciles of the shard's controllers did not finish within {}: leaving member lease {} "
                        + "to expire instead of releasing it", options.shutdownTimeout(), sharding.membership().lease());
                sharding.abandon();
            }
        }
        controllers.close(Duration.ofNanos(Math.max(0, time.nanosUntil(deadline))));
        if (elector != null) {
            elector.close();
        }
        informers.close();
        if (events != null) {
            events.close();
        }
        log.info("operator stopped");
    }

    /** Describes a {@link Manager}. Not thread-safe. */
    public static final class Builder {
        private final KubernetesClient client;
        private ManagerOptions options = ManagerOptions.defaults();
        private @Nullable SharedInformerFactory informers;
        private @Nullable EventBroadcaster events;
        private @Nullable Function<LeaderCallbacks, LeaderElector> elector;
        private @Nullable Runnable onLostLeadership;
        private @Nullable Sharding sharding;

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** How the manager runs; default {@link ManagerOptions#defaults()}. */
        public Builder options(ManagerOptions options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /**
         * The informer factory to run; default the {@linkplain #sharding sharding's}, else a new one on
         * the client with {@link InformerOptions#defaults()}.
         */
        public Builder informers(SharedInformerFactory informers) {
            this.informers = Objects.requireNonNull(informers, "informers");
            return this;
        }

        /** An event broadcaster to start and close with the manager; default none. */
        public Builder events(EventBroadcaster events) {
            this.events = Objects.requireNonNull(events, "events");
            return this;
        }

        /**
         * Elects a leader: {@code elector} builds the elector from the callbacks the manager gives
         * it (pass them to {@code LeaderElectionConfig.builder(lock, callbacks)}). Without it, every
         * replica runs the controllers.
         */
        public Builder leaderElection(Function<LeaderCallbacks, LeaderElector> elector) {
            this.elector = Objects.requireNonNull(elector, "elector");
            return this;
        }

        /**
         * After a lost term, stop for good and run {@code hook} (for example to end the process)
         * instead of campaigning again.
         */
        public Builder onLostLeadership(Runnable hook) {
            this.onLostLeadership = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /**
         * Makes this replica a member of {@code sharding}'s ring: controllers added with
         * {@link Manager#addSharded} run in its member terms, and the ring's assigner runs in each
         * leader term. Needs {@link #leaderElection} (the elected replica assigns), and the
         * sharding's informer factory as the manager's.
         */
        public Builder sharding(Sharding sharding) {
            this.sharding = Objects.requireNonNull(sharding, "sharding");
            return this;
        }

        /**
         * @throws IllegalStateException with sharding but no leader election, or an informer factory
         *     that is not the sharding's
         */
        public Manager build() {
            if (sharding != null) {
                if (elector == null) {
                    throw new IllegalStateException("sharding needs leader election: the elected replica assigns "
                            + "objects to the ring's members (Manager.Builder.leaderElection)");
                }
                if (informers != null && informers != sharding.informers()) {
                    throw new IllegalStateException("the manager must run the informer factory the sharding of ring "
                            + sharding.ring() + " was built on (it watches the ring's member Leases there)");
                }
            }
            return new Manager(this);
        }
    }
}

package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerSyncException;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.discovery.ResourceLookup.NotServed;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.manager.ManagerOptions.OnMissingResource;
import dev.operatorstarter.manager.ManagerState.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an operator (controller-runtime's manager): the informer factory, the optional event
 * broadcaster and leader elector, and {@link ManagedRunnable}s in {@link RunnableGroup}s, started
 * in the groups' order once the API server serves every informer's resource and the caches synced,
 * and stopped in reverse by {@link #close()}. {@link #controller} is the front door for
 * controllers; {@link ManagerBuilder#plugin} adds capabilities such as sharding. The package
 * description gives the start and stop sequence, terms, and what happens on a lost lease. The
 * client is the caller's: close it after the manager. A manager runs once. Thread-safe.
 */
public final class Manager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Manager.class);

    private final KubernetesClient client;
    private final SharedInformerFactory informers;
    private final @Nullable EventBroadcaster events;
    private final @Nullable LeaderElector elector;
    private final @Nullable MemberTerms memberTerms;
    private final Map<RunnableGroup, Runnables> groups;
    private final ManagerOptions options;
    private final ResourceCheck resources;
    private final CachedInformers cached;
    private final Object lock = new Object();
    private ManagerState state = new ManagerState.Idle(); // guarded by lock
    private @Nullable Thread startup; // guarded by lock

    Manager(ManagerBuilder builder) {
        this.client = builder.client;
        this.options = builder.options;
        this.informers = builder.informers();
        this.events = builder.events;
        this.cached = new CachedInformers(builder.selectors);
        this.resources = new ResourceCheck(client, informers, options);
        this.groups = Runnables.groups(options, builder.onLostLeadership);
        this.elector = builder.elector(groups.get(RunnableGroup.LEADER_TERM));
        PluginExtensions extensions = new PluginExtensions(informers, elector != null, groups);
        builder.plugins.forEach(plugin -> plugin.install(extensions));
        this.memberTerms = extensions.memberTerms;
    }

    /** Starts describing a manager that works through {@code client}. */
    public static ManagerBuilder builder(KubernetesClient client) {
        return new ManagerBuilder(client);
    }

    /** The client the manager's informers and controllers use (the caller's to close). */
    public KubernetesClient client() {
        return client;
    }

    /** The informer factory the manager runs. */
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

    /** Starts describing a controller of {@code type} that this manager runs. */
    public <T extends HasMetadata> ManagedControllerBuilder<T> controller(Class<T> type) {
        return controller(ResourceType.of(type));
    }

    /** Starts describing a controller of {@code type} that this manager runs (see {@link ManagedControllerBuilder}). */
    public <T extends HasMetadata> ManagedControllerBuilder<T> controller(ResourceType<T> type) {
        return new ManagedControllerBuilder<>(this, type, options, cached);
    }

    /** A lister over every cache the {@link #controller} builders make for {@code type}, looked up at each read. */
    public <T extends HasMetadata> Lister<T> lister(Class<T> type) {
        return cached.lister(type);
    }

    /** A lister over every metadata-only cache the {@link #controller} builders make for {@code type}, as {@link #lister}. */
    public Lister<PartialObjectMetadata> metadataLister(Class<? extends HasMetadata> type) {
        return cached.metadataLister(type);
    }

    /**
     * Adds {@code runnable} to {@code group} before {@link #start()}; a controller built by hand as
     * {@code add(ManagedRunnable.of(controller), RunnableGroup.LEADER_TERM)}.
     *
     * @throws IllegalStateException once started; for the caches group; for the member group when no plugin gave its terms
     */
    public Manager add(ManagedRunnable runnable, RunnableGroup group) {
        synchronized (lock) {
            requireIdle("add " + Objects.requireNonNull(runnable, "runnable").name());
            if (group == RunnableGroup.MEMBER_TERM && memberTerms == null) {
                throw new IllegalStateException("no plugin gives the member terms " + runnable.name() + " would run in");
            }
            groups.get(Objects.requireNonNull(group, "group")).add(runnable);
        }
        return this;
    }

    void requireIdle(String what) {
        synchronized (lock) {
            if (!(state instanceof ManagerState.Idle)) {
                throw new IllegalStateException(what + " before the manager starts");
            }
        }
    }

    /** Every controller's state, in the order of the groups, then as added; cheap, never calls the API server. */
    public List<ControllerStatus> controllers() {
        return ManagedController.statuses(groups.values());
    }

    /** True while the {@link RunnableGroup#LEADER_TERM} group should run: this replica leads, or there is no election. */
    public boolean isActive() {
        return isActive(RunnableGroup.LEADER_TERM);
    }

    /** True while {@code group} runs: started (for a term group: in a term) and not closed. */
    public boolean isActive(RunnableGroup group) {
        return groups.get(group).isActive();
    }

    /** True between {@link #start()} and {@link #close()}. */
    public boolean isRunning() {
        synchronized (lock) {
            return state.isOpen();
        }
    }

    /** The resources the server did not serve when last asked; empty once all are served (or never checked). */
    public List<NotServed> missingResources() {
        return resources.missing();
    }

    /**
     * Starts everything in order and returns once the term groups campaign (on the electors' threads)
     * or, without election, run. On an exception the manager stays started: close it.
     *
     * @throws ResourceNotServedException when the server does not serve a resource an informer needs ({@code FAIL})
     * @throws InformerSyncException when the caches do not sync within {@link ManagerOptions#cacheSyncTimeout()}
     * @throws IllegalStateException when the manager started or closed before, or selectors name a resource nothing caches
     */
    public void start() throws InterruptedException {
        begin();
        if (resources.await(this::isRunning) && startInformers()) {
            informers.waitForCacheSync(options.cacheSyncTimeout());
            run();
        }
    }

    /**
     * Like {@link #start()} on a background thread, which logs each time the cache-sync timeout passes and
     * goes on waiting. With {@code FAIL} the resource check (which may throw {@link ResourceNotServedException})
     * and the informers' start run before returning.
     */
    public void startInBackground() {
        begin();
        boolean checked = options.onMissingResource() == OnMissingResource.FAIL;
        if (checked) {
            resources.check();
            startInformers(); // before returning: their caches fill meanwhile
        }
        synchronized (lock) {
            if (state.isOpen()) {
                startup = options.threadFactory().newThread(() -> syncThenRun(checked));
                startup.setName("operator-startup");
                startup.start();
            }
        }
    }

    private void begin() {
        synchronized (lock) {
            cached.requireSelectorsUsed();
            state = ManagerState.next(state, new Event.Start(options.timeSource().nanoTime()));
            if (events != null) {
                events.start();
            }
            groups.get(RunnableGroup.WEBHOOKS).startOnce();
        }
    }

    /** Starts the informers unless closed meanwhile; false when closed. */
    private boolean startInformers() {
        synchronized (lock) {
            state = ManagerState.next(state, new Event.Served(options.timeSource().nanoTime()));
            if (state.isOpen()) {
                informers.start();
            }
            return state.isOpen();
        }
    }

    private void syncThenRun(boolean checked) {
        try {
            if (!checked && !(resources.await(this::isRunning) && startInformers())) {
                return; // closed
            }
            while (isRunning()) {
                try {
                    informers.waitForCacheSync(options.cacheSyncTimeout());
                    run();
                    return;
                } catch (InformerSyncException e) {
                    log.error("{}; still waiting", e.getMessage());
                }
            }
        } catch (InterruptedException e) { // closed
        } catch (RuntimeException e) {
            log.error("The operator did not start: {}", e.getMessage(), e);
        }
    }

    private void run() {
        log.info("{} informer caches synced", informers.informers().size());
        synchronized (lock) {
            state = ManagerState.next(state, new Event.Synced(options.timeSource().nanoTime()));
        }
        groups.get(RunnableGroup.ALWAYS).startOnce(); // not under the lock: close() ends a start in progress
        synchronized (lock) { // so close() cannot slip between the check and the campaigns' start
            if (state.isOpen() && elector != null) {
                if (memberTerms != null) {
                    memberTerms.start(groups.get(RunnableGroup.MEMBER_TERM));
                }
                elector.start();
            }
        }
        if (elector == null && isRunning()) {
            groups.get(RunnableGroup.LEADER_TERM).startOnce();
        }
    }

    /** Stops for good, in reverse order (see the package description). Idempotent; does not close the client. */
    @Override
    public void close() {
        Thread waiting;
        boolean started;
        synchronized (lock) {
            if (state instanceof ManagerState.Closed) {
                return;
            }
            started = !(state instanceof ManagerState.Idle);
            state = ManagerState.next(state, new Event.Close());
            waiting = startup;
            startup = null;
        }
        if (waiting != null) {
            waiting.interrupt();
        }
        long deadline = options.timeSource().deadlineAfter(options.shutdownTimeout());
        boolean drained = groups.get(RunnableGroup.MEMBER_TERM).close(left(deadline));
        if (memberTerms != null) {
            memberTerms.end(drained || !started);
        }
        groups.get(RunnableGroup.LEADER_TERM).close(left(deadline));
        if (elector != null) {
            elector.close();
        }
        groups.get(RunnableGroup.ALWAYS).close(left(deadline));
        informers.close();
        groups.get(RunnableGroup.WEBHOOKS).close(left(deadline));
        if (started) {
            if (events != null) {
                events.close();
            }
            log.info("operator stopped");
        }
    }

    private Duration left(long deadline) {
        return Duration.ofNanos(Math.max(0, options.timeSource().nanosUntil(deadline)));
    }
}

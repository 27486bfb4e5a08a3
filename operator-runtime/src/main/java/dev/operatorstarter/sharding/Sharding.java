package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.Indexer;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.ResourceLock;
import dev.operatorstarter.manager.ControllerExtension;
import dev.operatorstarter.manager.ControllerLayout;
import dev.operatorstarter.manager.ManagedRunnable;
import dev.operatorstarter.manager.ManagerPlugin;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One replica's part in a ring: its membership (a Lease of its own, campaigned for on the replica's
 * own terms), the assigner it runs while it leads the operator's leader election, and what its
 * sharded controllers need: informer scopes narrowed to its share ({@link #narrow}) and the
 * decorator that acknowledges drains and waits for moved-in children ({@link #decorator}).
 *
 * <p>Usage, with the {@code Manager}: build it on the manager's informer factory, install it with
 * {@code ManagerBuilder.plugin(sharding)}, and give it to each sharded controller with
 * {@code manager.controller(Widget.class)...extendedBy(sharding)}: the builder narrows the
 * controller's primary and owned informers ({@link #narrow}), registers its resources over their
 * unsharded scopes ({@link #register}), decorates it ({@link #decorator}) and adopts it
 * ({@link #adopt}); it then runs in the member Lease's terms. Registering and decorating end when
 * the member starts. Without a manager, call those methods yourself.
 *
 * <p>Lifecycle (the manager's): {@link #start} after the caches synced joins the ring (the member
 * elector campaigns; each of its terms runs the given callbacks: the shard's controllers);
 * {@link #assigner()} is the task the manager runs in each of its leader terms; {@link #close()}
 * stops campaigning and releases the member Lease (only once the shard's controllers stopped:
 * release means "nothing of this shard runs any more", and the assigner moves its objects at once);
 * {@link #abandon()} stops and leaves the Lease to expire (controllers that did not stop in time).
 * A member whose Lease was taken is tainted for good ({@link Membership}): the builder's
 * {@code onTainted} hook runs once, and should end the process, which joins again as a new member.
 *
 * <p>Threading: thread-safe. {@link #status()}, {@link #membership()} and {@link #narrow} are local
 * and cheap; nothing here blocks except {@link #close()} and {@link #abandon()}, which wait for the
 * member elector to stop (at most the renew deadline plus two retry periods).
 */
public final class Sharding implements ManagerPlugin, ControllerExtension {

    private enum State { NEW, STARTED, CLOSED }

    private final KubernetesClient client;
    private final SharedInformerFactory informers;
    private final ShardingOptions options;
    private final ShardLabels labels;
    private final Assigner assigner;
    private final ShardCallbacks shard;
    private final MemberElection member;
    /** This replica's own view of the member Leases (the assigner keeps its own per leader term). */
    private final Members members;
    private final Object lock = new Object();
    private final List<ShardedResource<?>> registered = new ArrayList<>(); // guarded by lock
    private final Set<ShardedResource<?>> decorated = new HashSet<>(); // guarded by lock
    private State state = State.NEW; // guarded by lock

    private Sharding(Builder builder) {
        this.client = builder.client;
        this.informers = builder.informers;
        this.options = builder.options;
        this.labels = options.labels();
        this.assigner = new Assigner(client, options);
        this.shard = new ShardCallbacks(options);
        this.members = new Members(options.ring(), options.leaseDuration());
        String leaseName = ShardLabels.leaseName(options.ring(), options.shardId());
        ResourceLock lease = builder.lease != null ? builder.lease : MemberLock.leaseOf(client, options.namespace(),
                labels);
        this.member = MemberElection.create(lease, options.namespace() + "/" + leaseName, shard, builder.onTainted,
                config -> config.leaseDuration(options.leaseDuration()).renewDeadline(options.renewDeadline())
                        .retryPeriod(options.retryPeriod()).timeSource(options.timeSource())
                        .threadFactory(options.threadFactory()).name("member " + leaseName));
        informers.informerFor(Lease.class, InformerScope.namespace(options.namespace())
                .withLabelSelector(ShardLabels.RING_LABEL + "=" + options.ring()))
                .addEventHandler(members.handler(options.timeSource(), () -> { }));
    }

    /**
     * Starts describing this replica's part in a ring.
     *
     * @param client the client for the member Lease, the assigner's caches and writes, and the
     *     shard's acknowledgements
     * @param informers the factory the manager runs (its sharded controllers' informers are made
     *     there); the ring's member Leases are watched there too, for {@link #status()}
     */
    public static Builder builder(KubernetesClient client, SharedInformerFactory informers, ShardingOptions options) {
        return new Builder(client, informers, options);
    }

    /** The ring's name. */
    public String ring() {
        return options.ring();
    }

    /** This replica's member id. */
    public String shardId() {
        return options.shardId();
    }

    /** The ring's label keys and this shard's selector. */
    public ShardLabels labels() {
        return labels;
    }

    /** The informer factory this sharding was built on, which the manager runs. */
    public SharedInformerFactory informers() {
        return informers;
    }

    /**
     * {@code scope} narrowed to this shard's objects: its label selector AND this shard's token
     * ({@code shard.sharding.operatorstarter.dev/<ring>=<shardId>}). Make a sharded controller's
     * primary and owned informers over narrowed scopes, and leave watched ones unsharded.
     */
    @Override
    public InformerScope narrow(InformerScope scope) {
        return Objects.requireNonNull(scope, "scope").andLabelSelector(labels.selector());
    }

    /**
     * Declares what the assigner assigns for one sharded controller: its primary and owned
     * resources over their unsharded scopes. Registering an equal resource again changes nothing.
     *
     * @throws IllegalArgumentException when {@code resource}'s primary is owned by a resource
     *     registered before, or it owns the primary of one: one object would need two tokens
     * @throws IllegalStateException once the member started
     */
    public <T extends HasMetadata> void register(ShardedResource<T> resource) {
        Objects.requireNonNull(resource, "resource");
        synchronized (lock) {
            requireNew("register " + resource.resource());
            if (registered.contains(resource)) {
                return;
            }
            for (ShardedResource<?> other : registered) {
                String conflict = conflict(resource, other);
                if (conflict == null) {
                    conflict = conflict(other, resource);
                }
                if (conflict != null) {
                    throw new IllegalArgumentException("cannot shard " + resource.resource() + " in ring " + ring()
                            + ": " + conflict + ", and an object can carry one token of a ring only");
                }
            }
            registered.add(resource);
            assigner.register(resource);
        }
    }

    /** Why {@code primary}'s objects may be owned objects of {@code owner} too; null when they cannot. */
    private static @Nullable String conflict(ShardedResource<?> primary, ShardedResource<?> owner) {
        GroupVersionResource resource = primary.type().groupVersionResource();
        boolean owned = owner.owned().stream().anyMatch(o -> o.resource().groupResource().equals(resource
                .groupResource()));
        return owned ? primary.resource() + " is the primary of one sharded controller and owned by "
                + owner.resource() + "'s" : null;
    }

    /**
     * What makes a controller of {@code resource} this shard's (pass it to
     * {@code ControllerBuilder.decoratedBy}): a drain request gets through any event filter and is
     * acknowledged instead of reconciled, with the cached {@code resourceVersion} as precondition;
     * an object that moved in is not reconciled until {@code owned}'s caches hold the children the
     * assigner moved with it (or {@link ShardingOptions#arrivalTimeout()} passed); a request for an
     * object this shard does not hold reaches the handler only as a deletion of an object it held.
     * Adds the owner index to each of {@code owned}'s caches.
     *
     * @param owned the controller's informers of owned objects (over {@linkplain #narrow narrowed}
     *     scopes), made on {@link #informers()}; at least one for each resource {@code resource} owns
     * @throws IllegalStateException when {@code resource} is not registered, or once the member started
     * @throws IllegalArgumentException when an informer was not made on {@link #informers()}, caches
     *     a resource {@code resource} does not own, or an owned resource has no informer
     */
    public <T extends HasMetadata> ControllerDecorator<T> decorator(ShardedResource<T> resource,
            List<? extends SharedIndexInformer<?>> owned) {
        Objects.requireNonNull(resource, "resource");
        synchronized (lock) {
            requireNew("decorate a controller of " + resource.resource());
            if (!registered.contains(resource)) {
                throw new IllegalStateException("register " + resource.resource() + " with the sharding of ring "
                        + ring() + " before decorating its controller: the assigner assigns only registered resources");
            }
            Map<String, List<Indexer<?>>> byResource = OwnedCaches.byResource(informers, resource, owned);
            ShardDecorator<T> decorator = new ShardDecorator<>(labels,
                    client.resources(resource.type()).withDeadline(options.retryPeriod()),
                    new ArrivalCheck(options.arrivalTimeout(), options.timeSource()),
                    (key, ownedResource) -> OwnedCaches.children(byResource.get(ownedResource), resource.ownerIndex(), key),
                    () -> options.metrics().drainAcknowledged(ring(), resource.resource()));
            decorated.add(resource);
            return decorator;
        }
    }

    /**
     * Takes {@code controller} as one of this shard's: checks that it has one primary informer, or
     * several over distinct namespaces made on {@link #informers()} (what the shard remembers of an
     * object, its hand-off and its arrival, is kept by {@code namespace/name}, so one object must not
     * be in two of its primary caches); then reports how many objects they hold, this shard's share,
     * as {@code controller_sharding_objects{ring,controller}} ({@link ShardingMetrics#shardObjects}).
     * The controller builder calls it; call it for a sharded controller run without a manager.
     * The gauge reads the caches when it is read, and holds them, not the controller.
     *
     * @throws IllegalArgumentException when two primary informers cover one namespace, or one of
     *     several was made elsewhere (its namespace is unknown)
     */
    @Override
    public void adopt(Controller<?> controller) {
        Objects.requireNonNull(controller, "controller");
        if (controller.primaries().size() > 1) {
            List<String> namespaces = new ArrayList<>();
            for (SharedIndexInformer<?> primary : controller.primaries()) {
                InformerScope scope = informers.scopeOf(primary).orElseThrow(() -> new IllegalArgumentException(
                        "the primary informer " + primary.name() + " of sharded controller " + controller.name()
                                + " was not made on the sharding's informer factory, so its namespace is unknown"));
                namespaces.add(scope.namespace());
            }
            if (namespaces.contains("") || new HashSet<>(namespaces).size() < namespaces.size()) {
                throw new IllegalArgumentException("sharded controller " + controller.name() + " has primary "
                        + "informers over overlapping namespaces " + namespaces.stream()
                        .map(ns -> ns.isEmpty() ? "(all)" : ns).toList() + ": a sharded controller needs one primary "
                        + "informer, or several over distinct namespaces, so that each object is in one of its caches");
            }
        }
        List<Indexer<?>> caches = controller.primaries().stream().<Indexer<?>>map(SharedIndexInformer::indexer)
                .toList();
        options.metrics().shardObjects(ring(), controller.name(), () -> caches.stream().mapToInt(Indexer::size).sum());
    }

    /**
     * Installs this replica's part into a manager built on {@link #informers()} that elects a
     * leader: the assigner runs in each leader term, and the member Lease's terms run the
     * manager's {@link RunnableGroup#MEMBER_TERM} group; the manager's close ends them, releasing
     * the member Lease only once the shard's controllers all stopped (else leaving it to expire).
     *
     * @throws IllegalStateException without leader election, or on another informer factory
     */
    @Override
    public void install(ManagerPlugin.Extensions manager) {
        if (!manager.electsLeader()) {
            throw new IllegalStateException("sharding needs leader election: the elected replica assigns "
                    + "objects to the ring's members (ManagerBuilder.leaderElection)");
        }
        if (manager.informers() != informers) {
            throw new IllegalStateException("the manager must run the informer factory the sharding of ring "
                    + ring() + " was built on (it watches the ring's member Leases there)");
        }
        manager.add(ManagedRunnable.of("assigner of ring " + ring(), assigner), RunnableGroup.LEADER_TERM);
        manager.memberTerms(new MemberTermsOfRing(this));
    }

    /** Sharded controllers run in the terms of this replica's member Lease. */
    @Override
    public RunnableGroup group() {
        return RunnableGroup.MEMBER_TERM;
    }

    /**
     * Registers the controller's primary and owned resources over their unsharded scopes (what the
     * assigner assigns) and returns its {@link #decorator}.
     *
     * @throws IllegalArgumentException when the controller also watches a resource it owns (its
     *     cache would hold only this shard's share of them), or the registration conflicts ({@link #register})
     */
    @Override
    public <T extends HasMetadata> ControllerDecorator<T> decorate(ControllerLayout<T> layout) {
        ShardedResource<T> resource = ShardedResource.of(layout.type(), layout.primaryScopes());
        for (Map.Entry<ResourceType<?>, List<InformerScope>> owned : layout.ownedScopes().entrySet()) {
            String ownedResource = owned.getKey().groupVersionResource().groupResource();
            if (layout.watched().stream().anyMatch(w -> w.groupVersionResource().groupResource().equals(ownedResource))) {
                throw new IllegalArgumentException("controller " + layout.controller() + " owns and watches "
                        + (owned.getKey().kind() != null ? owned.getKey().kind() + " (" + ownedResource + ")" : ownedResource)
                        + "; sharded, it would cache only the objects of its own share, and its watch "
                        + "would miss the others");
            }
            resource = resource.owning(owned.getKey().groupVersionResource(), owned.getValue());
        }
        register(resource);
        return decorator(resource, layout.ownedInformers());
    }

    /** This replica's membership: its phase, and the current term for reconcilers that check it before side effects. */
    public Membership membership() {
        return member;
    }

    /** This replica's view of the ring; local and cheap, never calls the API server. */
    public RingStatus status() {
        Optional<AssignerStatus> assigning = assigner.status();
        if (assigning.isPresent()) {
            AssignerStatus seen = assigning.get();
            return new RingStatus(ring(), shardId(), member.lease(), member.phase(), true, seen.members(),
                    seen.pendingDrains(), seen.unassigned(), seen.oldestPendingDrain());
        }
        long now = options.timeSource().nanoTime();
        List<RingStatus.MemberStatus> seen = new ArrayList<>();
        members.observations().values().forEach(observed -> seen.add(RingStatus.MemberStatus.of(observed, now,
                options.orphanTtl(), null)));
        return new RingStatus(ring(), shardId(), member.lease(), member.phase(), false, seen, null, null, null);
    }

    /**
     * Joins the ring: the member elector campaigns for this replica's Lease, and runs
     * {@code memberCallbacks} (the shard's controllers, gated by each term's validity) for each
     * term. Called by the manager once the caches synced, so the member's (empty) share is cached
     * before its Lease appears.
     *
     * @throws IllegalStateException when started or closed before, or when a registered resource
     *     has no decorated controller (nobody would acknowledge its drains)
     */
    public void start(LeaderCallbacks memberCallbacks) {
        Objects.requireNonNull(memberCallbacks, "memberCallbacks");
        synchronized (lock) {
            requireNew("start the member");
            List<String> undecorated = registered.stream().filter(resource -> !decorated.contains(resource))
                    .map(ShardedResource::resource).toList();
            if (!undecorated.isEmpty()) {
                throw new IllegalStateException("ring " + ring() + ": no sharded controller is decorated for "
                        + undecorated + " (ControllerBuilder.decoratedBy(sharding.decorator(...))): their drains "
                        + "would never be acknowledged");
            }
            state = State.STARTED;
            shard.target = memberCallbacks;
            member.start();
        }
    }

    /** The assigner: the task to run in each term of the operator's leader election. */
    public LeaderCallbacks assigner() {
        return assigner;
    }

    /**
     * Stops campaigning; a member in a term ends it and releases its Lease, so the assigner moves
     * its objects at once. Call it only once the shard's controllers stopped ({@link #abandon()}
     * otherwise). Idempotent; after {@link #abandon()} it releases nothing.
     */
    public void close() {
        end();
        member.close();
    }

    /**
     * Stops campaigning; a member in a term ends it and leaves its Lease to expire, as if the
     * process had died: the assigner takes it after the lease duration, then moves its objects. For
     * a shard whose controllers did not stop in time. Idempotent.
     */
    public void abandon() {
        end();
        member.abandon();
    }

    private void end() {
        synchronized (lock) {
            state = State.CLOSED;
        }
    }

    private void requireNew(String what) {
        if (state != State.NEW) {
            throw new IllegalStateException("cannot " + what + ": the member of ring " + ring() + " has "
                    + (state == State.STARTED ? "started" : "closed"));
        }
    }

    @Override
    public String toString() {
        return "Sharding[ring " + ring() + ", " + member + "]";
    }

    /** Builds a {@link Sharding}; starts nothing. Not thread-safe. */
    public static final class Builder {
        private final KubernetesClient client;
        private final SharedInformerFactory informers;
        private final ShardingOptions options;
        private Runnable onTainted = () -> { };
        private @Nullable ResourceLock lease;

        private Builder(KubernetesClient client, SharedInformerFactory informers, ShardingOptions options) {
            this.client = Objects.requireNonNull(client, "client");
            this.informers = Objects.requireNonNull(informers, "informers");
            this.options = Objects.requireNonNull(options, "options");
        }

        /**
         * Runs once when this member is tainted (its Lease was taken, deleted or released by someone
         * else: it may have been declared dead and its objects given to others). The member then
         * never runs again; the hook should end the process (the starter closes the application),
         * so that it joins again as a new member with a new shard id. Runs on the member elector's
         * thread and must return quickly. Default: nothing (the taint is logged as an error).
         */
        public Builder onTainted(Runnable hook) {
            this.onTainted = Objects.requireNonNull(hook, "hook");
            return this;
        }

        /** The member Lease's lock instead of the real Lease (tests: an in-memory lock). */
        Builder lease(ResourceLock lease) {
            this.lease = Objects.requireNonNull(lease, "lease");
            return this;
        }

        /**
         * The sharding, idle: makes the ring's Lease informer on the factory (the manager starts it
         * with the others).
         */
        public Sharding build() {
            return new Sharding(this);
        }
    }
}

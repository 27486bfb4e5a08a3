package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.HandlerRegistration;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.internal.Poll;
import dev.operatorstarter.leaderelection.Leadership;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leader term of a ring's assigner: its own informer factory with metadata-only informers over
 * the unsharded scopes of every sharded resource (the owned ones indexed by owner) and an informer
 * over the ring's member Leases; the {@link MemberLoop} over those Leases; and per sharded resource
 * an internal controller ({@code assigner-<ring>-<plural[.group]>}) whose primaries are the
 * resource's metadata, whose owned objects' changes are mapped to their owner, and whose handler is
 * an {@link AssignmentHandler}. Every worker and every write is gated by the term's validity.
 *
 * <p>Lifecycle: the constructor builds everything and starts nothing; {@link #start()} starts the
 * informers, waits until they synced, judges the members once, then starts the controllers;
 * {@link #stop()} (from any thread, also while {@code start} waits) stops the controllers without
 * waiting for them (another leader may act already), the loop, and the informers. A term is not
 * started again.
 */
final class AssignerTerm {

    private static final Logger log = LoggerFactory.getLogger(AssignerTerm.class);
    /** How often the wait for the caches looks, and complains after how long. */
    private static final Duration SYNC_POLL = Duration.ofMillis(20);
    private static final Duration SYNC_WARNING = Duration.ofMinutes(1);

    /** One sharded resource's informers and controller. */
    private record Part(List<SharedIndexInformer<PartialObjectMetadata>> primaries,
            Controller<PartialObjectMetadata> controller) {
    }

    private final KubernetesClient client;
    private final ShardingOptions options;
    private final Leadership leadership;
    private final SharedInformerFactory factory;
    private final Members members;
    private final Backlog backlog;
    private final MemberLoop loop;
    private final HandlerRegistration leaseEvents;
    private final SharedIndexInformer<Lease> leases;
    private final List<Part> parts = new ArrayList<>();
    private final Object lifecycle = new Object();
    private volatile boolean stopped;

    AssignerTerm(KubernetesClient client, ShardingOptions options, List<ShardedResource<?>> resources,
            Leadership leadership) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
        this.leadership = Objects.requireNonNull(leadership, "leadership");
        this.factory = new SharedInformerFactory(client, InformerOptions.builder().resyncPeriod(options.resyncPeriod())
                .reflector(ReflectorOptions.builder().timeSource(options.timeSource()).build())
                .threadFactory(options.threadFactory()).build());
        this.backlog = new Backlog(options.ring(), options.metrics(), options.timeSource());
        this.members = new Members(options.ring(), options.leaseDuration());
        this.loop = new MemberLoop(members, new LeaseTake(client.coordinationV1().leases().inNamespace(options.namespace()),
                options.shardId(), options.leaseDuration(), options.renewDeadline(), options.timeSource()), options,
                leadership::isValid, view -> enqueueEverything());
        this.leases = factory.informerFor(Lease.class, InformerScope.namespace(options.namespace())
                .withLabelSelector(ShardLabels.RING_LABEL + "=" + options.ring()));
        this.leaseEvents = leases.addEventHandler(loop.handler());
        for (ShardedResource<?> resource : resources) {
            parts.add(part(resource));
            backlog.track(resource.resource());
        }
    }

    private Part part(ShardedResource<?> resource) {
        ResourceType<?> type = resource.type();
        GroupVersionResource gvr = type.groupVersionResource();
        ResourceType<PartialObjectMetadata> metadata = new ResourceType<>(type.group(), type.version(), type.plural(),
                type.kind(), type.namespaced(), PartialObjectMetadata.class);
        List<SharedIndexInformer<PartialObjectMetadata>> primaries = resource.scopes().stream()
                .map(scope -> factory.metadataInformerFor(gvr, scope)).toList();
        Map<SharedIndexInformer<PartialObjectMetadata>, GroupVersionResource> owned = new LinkedHashMap<>();
        for (ShardedResource.Owned ownedResource : resource.owned()) {
            for (InformerScope scope : ownedResource.scopes()) {
                SharedIndexInformer<PartialObjectMetadata> informer = factory.metadataInformerFor(ownedResource.resource(),
                        scope);
                resource.indexOwners(informer);
                owned.put(informer, ownedResource.resource());
            }
        }
        AtomicReference<Controller<PartialObjectMetadata>> self = new AtomicReference<>();
        AssignmentHandler handler = new AssignmentHandler(resource, options, caches(resource, primaries, owned),
                () -> Objects.requireNonNull(loop.view(), "the member loop's first view"), leadership::isValid,
                this::patch, written -> self.get().writes().written(written), backlog);
        var builder = Controller.builder(ControllerOptions.builder("assigner-" + options.ring() + "-" + resource.resource())
                .workers(options.assignerWorkers()).timeSource(options.timeSource())
                .threadFactory(options.threadFactory()).build(), metadata, primaries);
        owned.keySet().forEach(builder::owns);
        Controller<PartialObjectMetadata> controller = builder.build(handler);
        self.set(controller);
        return new Part(primaries, controller);
    }

    private static AssignmentHandler.Caches caches(ShardedResource<?> resource,
            List<SharedIndexInformer<PartialObjectMetadata>> primaries,
            Map<SharedIndexInformer<PartialObjectMetadata>, GroupVersionResource> owned) {
        return new AssignmentHandler.Caches() {
            @Override
            public Optional<PartialObjectMetadata> owner(String key) {
                for (SharedIndexInformer<PartialObjectMetadata> primary : primaries) {
                    Optional<PartialObjectMetadata> object = primary.indexer().get(key);
                    if (object.isPresent()) {
                        return object;
                    }
                }
                return Optional.empty();
            }

            @Override
            public List<AssignmentHandler.Cached> children(String key) {
                Map<String, AssignmentHandler.Cached> children = new LinkedHashMap<>(); // once, if scopes overlap
                owned.forEach((informer, gvr) -> {
                    for (PartialObjectMetadata child : informer.indexer().byIndex(resource.ownerIndex(), key)) {
                        ObjectMeta meta = child.getMetadata();
                        children.putIfAbsent(gvr.groupResource() + " " + meta.getNamespace() + "/" + meta.getName(),
                                new AssignmentHandler.Cached(gvr, child));
                    }
                });
                return List.copyOf(children.values());
            }
        };
    }

    private HasMetadata patch(GroupVersionResource resource, String namespace, String name, String body) {
        ResourceClient<GenericKubernetesResource> objects = client.resources(ResourceType.generic(resource, null,
                !namespace.isEmpty())).withDeadline(options.renewDeadline());
        return (namespace.isEmpty() ? objects : objects.inNamespace(namespace)).patch(name, PatchType.MERGE, body);
    }

    /** The ring changed: every primary object is looked at again (the work queues deduplicate). */
    private void enqueueEverything() {
        for (Part part : parts) {
            for (SharedIndexInformer<PartialObjectMetadata> primary : part.primaries()) {
                primary.indexer().list().forEach(object -> part.controller().enqueue(ReconcileRequest.of(object)));
            }
        }
    }

    /**
     * Starts the informers, waits until they synced (for as long as it takes, complaining each
     * minute), judges the members, then starts the controllers gated by the term. Returns early when
     * the term is stopped meanwhile.
     *
     * @throws InterruptedException when interrupted (the term ends)
     */
    void start() throws InterruptedException {
        synchronized (lifecycle) {
            if (stopped) {
                return;
            }
            factory.start();
            while (!Poll.until(() -> stopped || synced(), options.timeSource().deadlineAfter(SYNC_WARNING),
                    options.timeSource(), SYNC_POLL)) {
                log.warn("assigner of ring {}: its caches have not synced yet: {}", options.ring(), unsynced());
            }
            if (stopped) {
                return;
            }
            loop.start();
            for (Part part : parts) {
                if (stopped) {
                    return;
                }
                part.controller().start(leadership::isValid);
            }
            log.info("assigner of ring {}: started ({} members seen, ring {})", options.ring(),
                    members.observations().size(), Objects.requireNonNull(loop.view()).ring().members());
        }
    }

    private boolean synced() {
        return leaseEvents.hasSynced() && factory.informers().stream().allMatch(SharedIndexInformer::hasSynced);
    }

    private List<String> unsynced() {
        List<String> waiting = new ArrayList<>();
        factory.informers().stream().filter(informer -> !informer.hasSynced())
                .forEach(informer -> waiting.add(informer.name() + informer.lastError().map(e -> " (" + e.getMessage()
                        + ")").orElse("")));
        return waiting;
    }

    /** Stops the controllers (without waiting for reconciles in flight), the member loop and the informers. Idempotent. */
    void stop() {
        stopped = true;
        loop.close();
        synchronized (lifecycle) {
            boolean interrupted = Thread.interrupted(); // the term's end may interrupt the caller
            for (Part part : parts) {
                try {
                    part.controller().stop(Duration.ZERO);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            factory.close();
            backlog.clear();
            options.metrics().members(options.ring(), MemberLoop.countByState(Map.of()));
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** What this term sees now; local and cheap (counts the tokens in the primary caches). */
    AssignerStatus status() {
        long now = options.timeSource().nanoTime();
        Map<String, Integer> objects = new HashMap<>();
        for (Part part : parts) {
            String token = options.labels().token();
            for (SharedIndexInformer<PartialObjectMetadata> primary : part.primaries()) {
                for (PartialObjectMetadata object : primary.indexer().list()) {
                    Map<String, String> labels = object.getMetadata().getLabels();
                    String shard = labels == null ? null : labels.get(token);
                    if (shard != null) {
                        objects.merge(shard, 1, Integer::sum);
                    }
                }
            }
        }
        List<RingStatus.MemberStatus> seen = new ArrayList<>();
        members.observations().forEach((shardId, observed) -> seen.add(RingStatus.MemberStatus.of(observed, now,
                options.orphanTtl(), objects.getOrDefault(shardId, 0))));
        return new AssignerStatus(seen, backlog.pendingDrains(), backlog.oldestPendingDrain().orElse(null),
                backlog.unassigned());
    }
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.Keys;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToIntBiFunction;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What makes a controller a shard's: before each reconcile, from the shard's own cache of the
 * primary, it acknowledges a drain request instead of reconciling (removing the token and the
 * drain label, with the cached {@code resourceVersion} as a precondition), holds back the first
 * reconcile of an object that moved in until its children did ({@link ArrivalCheck}), and otherwise
 * runs the controller's handler. Its filter lets every drain request through, whatever the
 * controller's own filter drops (a drain changes only a label, which {@code generationChanged}
 * would swallow).
 *
 * <p>A request for an object the shard's cache does not hold reaches the handler (as a deletion)
 * only when the shard held the object at its last request for it: an object this shard handed off
 * leaves its caches with several events (its own, then each child's as the assigner relabels it),
 * and none of them is a deletion; a request mapped from a watched object to an owner in another
 * shard is none either, nor a requeue that was waiting when the object left.
 *
 * <p>An acknowledged object is remembered at the version acknowledged ({@link HandedOff}): while the
 * cache still shows that version (it has not caught up with the acknowledgement), a request for it
 * is dropped, neither acknowledged again nor counted as held; at any other version it is assigned
 * here again, and handled as any other. An acknowledgement refused as stale (409) is settled by one
 * read: if the object no longer carries this shard's token, the acknowledgement landed after all
 * (its answer was lost) and the object is handed off; otherwise it is tried again shortly.
 *
 * <p>What it remembers of an object that left the cache without a request saying so (a deletion
 * the controller's filter dropped) is forgotten after {@link HandedOff#TTL}, swept at most once per
 * {@link #SWEEP} by any request.
 *
 * <p>The acknowledgement runs in the controller's worker, so the work queue keeps it apart from
 * any reconcile of the same object: once it is written, no reconcile of the object runs here again
 * in this assignment.
 */
final class ShardDecorator<T extends HasMetadata> implements ControllerDecorator<T> {

    /** How soon a request that waits (a conflicting ack, children not yet arrived) is tried again. */
    static final Duration RETRY = Duration.ofMillis(50);
    /** How often, at most, what is remembered of objects gone from the cache is looked through. */
    static final Duration SWEEP = Duration.ofMinutes(1);

    private static final Logger log = LoggerFactory.getLogger(ShardDecorator.class);

    private final ShardLabels labels;
    private final ResourceClient<T> primaries;
    private final ArrivalCheck arrivals;
    private final ToIntBiFunction<String, String> children;
    private final Runnable acked;
    private final TimeSource time;
    /**
     * The objects this shard held (its cache showed them with its token) at their last request, and
     * when: only their absence is a deletion. An acknowledged object leaves the map.
     */
    private final Map<String, Long> held = new ConcurrentHashMap<>();
    private final HandedOff handedOff;
    private final AtomicLong nextSweep;

    /**
     * @param primaries the primary resource's client, with a deadline shorter than the member term's margin
     * @param arrivals the arrival check; its time source times what the decorator remembers too
     * @param children how many children of a resource ({@code plural[.group]}) this shard's caches
     *        hold for an owner ({@code namespace/name})
     * @param acked called after each acknowledgement, for the metrics
     */
    ShardDecorator(ShardLabels labels, ResourceClient<T> primaries, ArrivalCheck arrivals,
            ToIntBiFunction<String, String> children, Runnable acked) {
        this.labels = Objects.requireNonNull(labels, "labels");
        this.primaries = Objects.requireNonNull(primaries, "primaries");
        this.arrivals = Objects.requireNonNull(arrivals, "arrivals");
        this.children = Objects.requireNonNull(children, "children");
        this.acked = Objects.requireNonNull(acked, "acked");
        this.time = arrivals.time();
        this.handedOff = new HandedOff(time, HandedOff.TTL);
        this.nextSweep = new AtomicLong(time.nanoTime() + SWEEP.toNanos());
    }

    @Override
    public EventFilter<T> filter(EventFilter<T> filter) {
        EventFilter<T> drainRequested = new EventFilter<>() {
            @Override
            public boolean onAdd(T object) {
                return drainRequested(object);
            }

            @Override
            public boolean onUpdate(T oldObject, T newObject) {
                return drainRequested(newObject);
            }

            @Override
            public boolean onDelete(T object) {
                return false;
            }
        };
        return drainRequested.or(filter);
    }

    @Override
    public ReconcileHandler<T> handler(ReconcileHandler<T> handler, Function<ReconcileRequest, Optional<T>> cache) {
        return request -> {
            sweep(cache);
            String key = request.key();
            Optional<T> cached = cache.apply(request);
            if (cached.isEmpty()) {
                arrivals.forget(key);
                if (held.remove(key) == null) {
                    return ReconcileResult.done(); // handed off, or never held here: not a deletion of ours
                }
                return handler.reconcile(request); // deleted
            }
            T object = cached.get();
            String version = object.getMetadata().getResourceVersion();
            Optional<String> handedOffAt = handedOff.versionOf(key);
            if (handedOffAt.isPresent()) {
                if (handedOffAt.get().equals(version)) {
                    return ReconcileResult.done(); // acknowledged at this version: the cache has not caught up
                }
                handedOff.forget(key); // another version: assigned here again
            }
            if (!isMine(object)) {
                held.remove(key);
                log.debug("{}: its token names {}, not this shard {}; not reconciled", key, tokenOf(object),
                        labels.shardId());
                return ReconcileResult.done();
            }
            held.put(key, time.nanoTime());
            if (drainRequested(object)) {
                return acknowledge(request, object);
            }
            Map<String, String> annotations = object.getMetadata().getAnnotations();
            String arrival = annotations == null ? null : annotations.get(labels.arrival());
            switch (arrivals.check(key, arrival, (resource) -> children.applyAsInt(key, resource))) {
                case WAIT:
                    return ReconcileResult.requeueAfter(RETRY);
                case OVERDUE:
                    log.warn("{} moved to shard {} announcing children {}, which its caches do not all hold yet; "
                            + "reconciling anyway", key, labels.shardId(), arrival);
                    break;
                default:
                    break;
            }
            return handler.reconcile(request);
        };
    }

    private ReconcileResult acknowledge(ReconcileRequest request, T object) {
        String version = object.getMetadata().getResourceVersion();
        String body = ackPatch(labels, version);
        ResourceClient<T> client = request.namespace().isEmpty() ? primaries : primaries.inNamespace(request.namespace());
        try {
            client.patch(request.name(), PatchType.MERGE, body);
        } catch (ApiException.Conflict changed) {
            Optional<T> live = client.find(request.name());
            if (live.isEmpty() || isMine(live.get())) {
                return ReconcileResult.requeueAfter(RETRY); // decided again from a newer cache
            }
            log.debug("{}: no longer carries the token of shard {} (an acknowledgement whose answer was lost)",
                    request.key(), labels.shardId());
            handOff(request.key(), version);
            return ReconcileResult.done();
        } catch (ApiException.NotFound gone) {
            return ReconcileResult.done();
        }
        handOff(request.key(), version);
        acked.run();
        log.debug("{}: drained from shard {}", request.key(), labels.shardId());
        return ReconcileResult.done();
    }

    /** The object {@code key}, cached at {@code version}, is no longer this shard's. */
    private void handOff(String key, String version) {
        held.remove(key);
        handedOff.remember(key, version);
        arrivals.forget(key);
    }

    /**
     * At most once per {@link #SWEEP}: forgets acknowledgements older than {@link HandedOff#TTL}, and
     * what it remembers of objects that have been gone from the cache for as long, even if no
     * request for them comes again.
     */
    private void sweep(Function<ReconcileRequest, Optional<T>> cache) {
        long now = time.nanoTime();
        long due = nextSweep.get();
        if (now - due < 0 || !nextSweep.compareAndSet(due, now + SWEEP.toNanos())) {
            return;
        }
        handedOff.expire();
        long ttl = HandedOff.TTL.toNanos();
        held.entrySet().removeIf(entry -> now - entry.getValue() >= ttl && gone(cache, entry.getKey()));
        arrivals.expire(HandedOff.TTL, key -> gone(cache, key));
    }

    private static <T> boolean gone(Function<ReconcileRequest, Optional<T>> cache, String key) {
        return cache.apply(new ReconcileRequest(Keys.namespace(key), Keys.name(key))).isEmpty();
    }

    /** How many objects it remembers anything of: held, handed off, or waited for (for tests). */
    int remembered() {
        return held.size() + handedOff.size() + arrivals.size();
    }

    private boolean isMine(T object) {
        return labels.shardId().equals(tokenOf(object));
    }

    private @Nullable String tokenOf(T object) {
        Map<String, String> objectLabels = object.getMetadata().getLabels();
        return objectLabels == null ? null : objectLabels.get(labels.token());
    }

    private boolean drainRequested(T object) {
        Map<String, String> objectLabels = object.getMetadata().getLabels();
        return objectLabels != null && objectLabels.containsKey(labels.drain()) && isMine(object);
    }

    /**
     * The acknowledgement: token and drain label removed, if the object is still at {@code resourceVersion}.
     *
     * @throws IllegalArgumentException when {@code resourceVersion} is null or empty (the write would not be conditional)
     */
    static String ackPatch(ShardLabels labels, @Nullable String resourceVersion) {
        return LabelPatch.at(resourceVersion).label(labels.token(), null).label(labels.drain(), null).toString();
    }
}

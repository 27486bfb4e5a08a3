package dev.operatorstarter.sharding;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
 * shard is none either.
 *
 * <p>The acknowledgement runs in the controller's worker, so the work queue keeps it apart from
 * any reconcile of the same object: once it is written, no reconcile of the object runs here again
 * in this assignment.
 */
final class ShardDecorator<T extends HasMetadata> implements ControllerDecorator<T> {

    /** How soon a request that waits (a conflicting ack, children not yet arrived) is tried again. */
    static final Duration RETRY = Duration.ofMillis(50);

    private static final Logger log = LoggerFactory.getLogger(ShardDecorator.class);

    private final ShardLabels labels;
    private final ResourceClient<T> primaries;
    private final ArrivalCheck arrivals;
    private final ToIntBiFunction<String, String> children;
    private final Runnable acked;
    /**
     * The objects this shard held (its cache showed them with its token) at their last request:
     * only their absence is a deletion. An acknowledged object leaves the set.
     */
    private final Set<String> held = ConcurrentHashMap.newKeySet();

    /**
     * @param primaries the primary resource's client, with a deadline shorter than the member term's margin
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
            String key = request.key();
            Optional<T> cached = cache.apply(request);
            if (cached.isEmpty()) {
                arrivals.forget(key);
                if (!held.remove(key)) {
                    return ReconcileResult.done(); // handed off, or never held here: not a deletion of ours
                }
                return handler.reconcile(request); // deleted
            }
            T object = cached.get();
            Map<String, String> objectLabels = object.getMetadata().getLabels();
            String token = objectLabels == null ? null : objectLabels.get(labels.token());
            if (!labels.shardId().equals(token)) {
                held.remove(key);
                log.debug("{}: its token names {}, not this shard {}; not reconciled", key, token, labels.shardId());
                return ReconcileResult.done();
            }
            held.add(key);
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
        String body = ackPatch(labels, object.getMetadata().getResourceVersion());
        ResourceClient<T> client = request.namespace().isEmpty() ? primaries : primaries.inNamespace(request.namespace());
        try {
            client.patch(request.name(), PatchType.MERGE, body);
        } catch (ApiException.Conflict changed) {
            return ReconcileResult.requeueAfter(RETRY); // decided again from a newer cache
        } catch (ApiException.NotFound gone) {
            return ReconcileResult.done();
        }
        held.remove(request.key());
        arrivals.forget(request.key());
        acked.run();
        log.debug("{}: drained from shard {}", request.key(), labels.shardId());
        return ReconcileResult.done();
    }

    private boolean drainRequested(T object) {
        Map<String, String> objectLabels = object.getMetadata().getLabels();
        return objectLabels != null && objectLabels.containsKey(labels.drain())
                && labels.shardId().equals(objectLabels.get(labels.token()));
    }

    /** The acknowledgement: token and drain label removed, if the object is still at {@code resourceVersion}. */
    static String ackPatch(ShardLabels labels, @Nullable String resourceVersion) {
        return LabelPatch.at(resourceVersion).label(labels.token(), null).label(labels.drain(), null).toString();
    }
}

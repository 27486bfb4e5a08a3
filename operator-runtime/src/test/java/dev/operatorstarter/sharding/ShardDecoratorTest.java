package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What reaches a shard's handler, decided from the shard's cache (a map here) without an API server:
 * the acknowledgement is a patch a fake client records. The same against the real server, with
 * informers: {@link ShardDecoratorIT}.
 */
class ShardDecoratorTest {

    private static final ShardLabels LABELS = new ShardLabels("ring", "shard-a");
    private static final ReconcileRequest REQUEST = new ReconcileRequest("ns", "site");

    private final Map<String, ConfigMap> cache = new ConcurrentHashMap<>();
    private final List<String> patches = new CopyOnWriteArrayList<>();
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private final AtomicInteger acks = new AtomicInteger();
    private volatile @Nullable RuntimeException patchFailure;
    private final ShardDecorator<ConfigMap> decorator = new ShardDecorator<>(LABELS, primaries(),
            new ArrivalCheck(Duration.ofSeconds(10), new FakeTimeSource()), (key, resource) -> 0, acks::incrementAndGet);
    private final ReconcileHandler<ConfigMap> handler = decorator.handler(request -> {
        reconciled.add(request.name() + (cache.containsKey(request.key()) ? "" : " (gone)"));
        return ReconcileResult.done();
    }, request -> Optional.ofNullable(cache.get(request.key())));

    @Test
    void anObjectTheShardHeldThenLostIsADeletionOnce() throws Exception {
        cache.put(REQUEST.key(), site(Map.of(LABELS.token(), "shard-a")));
        handler.reconcile(REQUEST);

        cache.remove(REQUEST.key());
        handler.reconcile(REQUEST);
        handler.reconcile(REQUEST); // a child's deletion, mapped to its owner afterwards

        assertThat(reconciled).containsExactly("site", "site (gone)");
    }

    @Test
    void anAcknowledgedObjectLeavesWithoutAnyOfItsDeparturesLookingLikeADeletion() throws Exception {
        cache.put(REQUEST.key(), site(Map.of(LABELS.token(), "shard-a")));
        handler.reconcile(REQUEST);
        cache.put(REQUEST.key(), site(Map.of(LABELS.token(), "shard-a", LABELS.drain(), "true")));

        assertThat(handler.reconcile(REQUEST)).isEqualTo(ReconcileResult.done());
        assertThat(patches).containsExactly("site " + ShardDecorator.ackPatch(LABELS, "7"));
        assertThat(acks).hasValue(1);

        cache.remove(REQUEST.key()); // the object left the shard's selector
        handler.reconcile(REQUEST);
        handler.reconcile(REQUEST); // its child, relabelled by the assigner, left the shard's selector too

        assertThat(reconciled).containsExactly("site");
    }

    @Test
    void aRequestForAnObjectNeverHeldHereIsDropped() throws Exception {
        handler.reconcile(REQUEST); // mapped from a watched object to an owner in another shard

        assertThat(reconciled).isEmpty();
    }

    @Test
    void anAcknowledgementThatConflictsIsTriedAgainShortlyAndTheObjectStaysHeld() throws Exception {
        cache.put(REQUEST.key(), site(Map.of(LABELS.token(), "shard-a", LABELS.drain(), "true")));
        patchFailure = MemberLockTest.failure("Conflict", 409);

        assertThat(handler.reconcile(REQUEST)).isEqualTo(ReconcileResult.requeueAfter(ShardDecorator.RETRY));
        assertThat(acks).hasValue(0);

        cache.remove(REQUEST.key()); // deleted before the next try
        handler.reconcile(REQUEST);

        assertThat(reconciled).containsExactly("site (gone)");
    }

    @Test
    void anObjectWhoseTokenNamesAnotherShardIsNotReconciled() throws Exception {
        cache.put(REQUEST.key(), site(Map.of(LABELS.token(), "shard-b")));

        handler.reconcile(REQUEST);
        cache.remove(REQUEST.key());
        handler.reconcile(REQUEST);

        assertThat(reconciled).isEmpty();
    }

    private static ConfigMap site(Map<String, String> labels) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("site").withResourceVersion("7")
                .addToLabels(labels).endMetadata().build();
    }

    /** A client of the primaries that records each patch as {@code "<name> <body>"} and answers nothing else. */
    @SuppressWarnings("unchecked")
    private ResourceClient<ConfigMap> primaries() {
        Object[] self = new Object[1];
        self[0] = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {ResourceClient.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "inNamespace", "withDeadline" -> self[0];
                    case "patch" -> {
                        RuntimeException failure = patchFailure;
                        if (failure != null) {
                            throw failure;
                        }
                        patches.add(args[0] + " " + args[2]);
                        yield cache.get("ns/" + args[0]);
                    }
                    case "toString" -> "recording client";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (ResourceClient<ConfigMap>) self[0];
    }
}

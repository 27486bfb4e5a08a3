package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.testing.FakeTimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The assigner's decision on one object, executed against in-memory caches and a recording writer:
 * the writes in order, each at the cached version and only within the term; a stale write ends
 * the decision; what it counts and what it keeps as waiting.
 */
class AssignmentHandlerTest {

    private static final GroupVersionResource CONFIG_MAPS = ResourceType.of(ConfigMap.class).groupVersionResource();
    private static final GroupVersionResource SECRETS = ResourceType.of(Secret.class).groupVersionResource();
    private static final ShardLabels LABELS = new ShardLabels("ring", "leader");
    private static final Duration RETRY = Duration.ofSeconds(2);
    private static final ReconcileRequest SITE = new ReconcileRequest("ns", "site");

    private final FakeTimeSource time = new FakeTimeSource();
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final Map<String, PartialObjectMetadata> owners = new HashMap<>();
    private final List<AssignmentHandler.Cached> children = new ArrayList<>();
    private final List<String> writes = new ArrayList<>();
    private final List<HasMetadata> ownerWrites = new ArrayList<>();
    private final AtomicBoolean leading = new AtomicBoolean(true);
    private final Set<String> stale = ConcurrentHashMap.newKeySet();
    private MemberLoop.View view = view(List.of("a"), Map.of("a", MemberState.READY));
    private final Backlog backlog = new Backlog("ring", metrics, time);
    private final AssignmentHandler handler = new AssignmentHandler(
            ShardedResource.of(ResourceType.of(ConfigMap.class), List.of(InformerScope.namespace("ns"))),
            ShardingOptions.builder("ring", "leader", "ns").retryPeriod(RETRY).metrics(metrics).timeSource(time).build(),
            new AssignmentHandler.Caches() {
                @Override
                public Optional<PartialObjectMetadata> owner(String key) {
                    return Optional.ofNullable(owners.get(key));
                }

                @Override
                public List<AssignmentHandler.Cached> children(String key) {
                    return children;
                }
            }, () -> view, leading::get, this::write, ownerWrites::add, backlog);

    private HasMetadata write(GroupVersionResource resource, String namespace, String name, String body) {
        if (stale.contains(resource.groupResource() + " " + name)) {
            throw ApiException.fromStatus(new StatusBuilder().withCode(409).withReason("Conflict").build(), "PATCH");
        }
        writes.add(resource.groupResource() + " " + namespace + "/" + name + " " + body);
        return object(name, null, false, "99");
    }

    @Test
    void aTokenlessOwnerIsAssignedAfterItsChildrenEachWrittenAtItsCachedVersion() {
        owners.put("ns/site", object("site", null, false, "10"));
        children.add(new AssignmentHandler.Cached(CONFIG_MAPS, object("site-content", null, false, "11")));
        children.add(new AssignmentHandler.Cached(SECRETS, object("site", "gone", false, "12")));

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.done());

        assertThat(writes).containsExactly(
                "configmaps ns/site-content " + LabelPatch.at("11").label(LABELS.token(), "a"),
                "secrets ns/site " + LabelPatch.at("12").label(LABELS.token(), "a"),
                "configmaps ns/site " + LabelPatch.at("10").label(LABELS.token(), "a").label(LABELS.drain(), null)
                        .annotation(LABELS.arrival(), "configmaps=1,secrets=1"));
        assertThat(ownerWrites).as("for read-your-writes").hasSize(1);
        assertThat(metrics.events).containsExactly("assigned configmaps", "assigned secrets", "assigned configmaps");
    }

    @Test
    void anOwnerOfAGoneShardIsMovedAndCountedAsAMovementWithItsChildren() {
        owners.put("ns/site", object("site", "gone", true, "10"));
        children.add(new AssignmentHandler.Cached(SECRETS, object("site", "gone", false, "12")));

        handler.reconcile(SITE);

        assertThat(writes).hasSize(2);
        assertThat(metrics.events).containsExactly("moved secrets", "moved configmaps");
    }

    @Test
    void aStaleWriteEndsTheDecisionBeforeTheOwnerAndPutsItBackRateLimited() {
        owners.put("ns/site", object("site", null, false, "10"));
        children.add(new AssignmentHandler.Cached(CONFIG_MAPS, object("site-content", null, false, "11")));
        children.add(new AssignmentHandler.Cached(SECRETS, object("site", null, false, "12")));
        stale.add("secrets site");

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.requeue());

        assertThat(writes).hasSize(1).allSatisfy(write -> assertThat(write).startsWith("configmaps ns/site-content"));
        assertThat(ownerWrites).isEmpty();
    }

    @Test
    void nothingIsWrittenWhileTheTermIsNotValid() {
        owners.put("ns/site", object("site", null, false, "10"));
        leading.set(false);

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.requeueAfter(RETRY));

        assertThat(writes).isEmpty();
        assertThat(metrics.events).isEmpty();
    }

    @Test
    void anObjectWaitsForAMemberCountedAsUnassignedUntilOneJoins() {
        owners.put("ns/site", object("site", null, false, "10"));
        view = view(List.of(), Map.of());

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.requeueAfter(RETRY));
        assertThat(metrics.unassigned).containsEntry("configmaps", 1);
        assertThat(backlog.unassigned()).isEqualTo(1);

        view = view(List.of("a"), Map.of("a", MemberState.READY));

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.done());
        assertThat(writes).hasSize(1);
        assertThat(metrics.unassigned).containsEntry("configmaps", 0);
    }

    @Test
    void aDrainRequestedHereIsPendingUntilTheAckAndItsHandoverIsObservedWhenTheObjectIsAssigned() {
        view = view(List.of("b"), Map.of("a", MemberState.READY, "b", MemberState.READY));
        owners.put("ns/site", object("site", "a", false, "10"));

        handler.reconcile(SITE);

        assertThat(writes).containsExactly("configmaps ns/site " + LabelPatch.at("10").label(LABELS.drain(), "true"));
        assertThat(metrics.events).containsExactly("drain configmaps");
        assertThat(metrics.pendingDrains).isEqualTo(1);
        owners.put("ns/site", object("site", "a", true, "11"));
        time.advance(Duration.ofSeconds(3));
        handler.reconcile(SITE);
        assertThat(writes).as("waiting for the acknowledgement").hasSize(1);
        assertThat(backlog.oldestPendingDrain()).contains(Duration.ofSeconds(3));

        owners.put("ns/site", object("site", null, false, "12")); // acknowledged
        handler.reconcile(SITE);

        assertThat(writes).hasSize(2);
        assertThat(metrics.events).containsExactly("drain configmaps", "assigned configmaps", "handover PT3S");
        assertThat(metrics.pendingDrains).isZero();
    }

    @Test
    void aDrainFoundPendingIsCountedButItsHandoverIsNotObservedAndADeletedOwnerIsForgotten() {
        view = view(List.of("b"), Map.of("a", MemberState.READY, "b", MemberState.READY));
        owners.put("ns/site", object("site", "a", true, "10")); // requested by an earlier leader
        owners.put("ns/other", object("other", "a", true, "10"));
        handler.reconcile(SITE);
        handler.reconcile(new ReconcileRequest("ns", "other"));
        assertThat(metrics.pendingDrains).isEqualTo(2);

        owners.put("ns/site", object("site", null, false, "11"));
        handler.reconcile(SITE);
        owners.remove("ns/other");
        assertThat(handler.reconcile(new ReconcileRequest("ns", "other"))).isEqualTo(ReconcileResult.done());

        assertThat(metrics.events).containsExactly("assigned configmaps");
        assertThat(metrics.pendingDrains).isZero();
        assertThat(backlog.oldestPendingDrain()).isEmpty();
    }

    @Test
    void theEndOfATermReportsZeroForItsGauges() {
        owners.put("ns/site", object("site", null, false, "10"));
        view = view(List.of(), Map.of());
        handler.reconcile(SITE);

        backlog.clear();

        assertThat(metrics.unassigned).containsEntry("configmaps", 0);
        assertThat(metrics.pendingDrains).isZero();
    }

    private static MemberLoop.View view(List<String> ring, Map<String, MemberState> states) {
        return new MemberLoop.View(HashRing.of(ring, 10), new TreeMap<>(states), MemberState.DEAD);
    }

    private static PartialObjectMetadata object(String name, @Nullable String token, boolean drain, String version) {
        ObjectMetaBuilder meta = new ObjectMetaBuilder().withNamespace("ns").withName(name).withResourceVersion(version);
        if (token != null) {
            meta.addToLabels(LABELS.token(), token);
        }
        if (drain) {
            meta.addToLabels(LABELS.drain(), "true");
        }
        PartialObjectMetadata object = new PartialObjectMetadata();
        object.setMetadata(meta.build());
        return object;
    }

    /** The counters as events in order, the gauges' last values. */
    private static final class RecordingMetrics implements ShardingMetrics {
        final List<String> events = new ArrayList<>();
        final Map<String, Integer> unassigned = new HashMap<>();
        volatile int pendingDrains;

        @Override
        public void assigned(String ring, String resource) {
            events.add("assigned " + resource);
        }

        @Override
        public void moved(String ring, String resource) {
            events.add("moved " + resource);
        }

        @Override
        public void drainRequested(String ring, String resource) {
            events.add("drain " + resource);
        }

        @Override
        public void handedOver(String ring, Duration duration) {
            events.add("handover " + duration);
        }

        @Override
        public void pendingDrains(String ring, int objects) {
            pendingDrains = objects;
        }

        @Override
        public void unassigned(String ring, String resource, int objects) {
            unassigned.put(resource, objects);
        }
    }
}

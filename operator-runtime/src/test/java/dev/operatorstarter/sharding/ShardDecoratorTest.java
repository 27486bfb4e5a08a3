package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.controller.EventFilter;
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
 * the server is a map behind a fake client that checks the acknowledgement's precondition and
 * counts its reads; time is a fake clock. The same against the real server, with informers:
 * {@link ShardDecoratorIT}.
 */
class ShardDecoratorTest {

    private static final ShardLabels LABELS = new ShardLabels("ring", "me");
    private static final ReconcileRequest SITE = new ReconcileRequest("ns", "site");

    private final FakeTimeSource time = new FakeTimeSource();
    /** The shard's primary cache, by key. */
    private final Map<String, ConfigMap> cache = new ConcurrentHashMap<>();
    /** The API server's objects in namespace {@code ns}, by name. */
    private final Map<String, ConfigMap> server = new ConcurrentHashMap<>();
    private final List<String> patches = new CopyOnWriteArrayList<>();
    private final AtomicInteger reads = new AtomicInteger();
    private final AtomicInteger acks = new AtomicInteger();
    /** What reached the controller's own handler: the name, and "(gone)" when the cache did not hold it. */
    private final List<String> reconciled = new CopyOnWriteArrayList<>();
    private final ShardDecorator<ConfigMap> decorator = new ShardDecorator<>(LABELS, server(),
            new ArrivalCheck(Duration.ofSeconds(10), time), (key, resource) -> 0, acks::incrementAndGet);
    private final ReconcileHandler<ConfigMap> handler = decorator.handler(request -> {
        reconciled.add(request.name() + (cache.containsKey(request.key()) ? "" : " (gone)"));
        return ReconcileResult.done();
    }, request -> Optional.ofNullable(cache.get(request.key())));

    @Test
    void anObjectTheShardHeldThenLostIsADeletionOnce() throws Exception {
        both(site("7", "me", false));
        handler.reconcile(SITE);

        cache.remove(SITE.key());
        handler.reconcile(SITE);
        handler.reconcile(SITE); // a child's deletion, mapped to its owner afterwards

        assertThat(reconciled).containsExactly("site", "site (gone)");
    }

    @Test
    void aDrainRequestIsAcknowledgedAtTheCachedVersionInsteadOfReconciled() throws Exception {
        both(site("7", "me", true));

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.done());

        assertThat(patches).containsExactly(ShardDecorator.ackPatch(LABELS, "7"));
        assertThat(patches.get(0)).contains("\"resourceVersion\":\"7\"").contains("\"" + LABELS.token() + "\":null")
                .contains("\"" + LABELS.drain() + "\":null");
        assertThat(server.get("site").getMetadata().getLabels()).doesNotContainKeys(LABELS.token(), LABELS.drain());
        assertThat(acks).hasValue(1);
        assertThat(reconciled).isEmpty();
    }

    @Test
    void afterTheAcknowledgementNoRequestForTheObjectIsAcknowledgedAgainOrDeliveredAsADeletion() throws Exception {
        both(site("7", "me", false));
        handler.reconcile(SITE);
        both(site("8", "me", true));
        handler.reconcile(SITE); // acknowledged

        handler.reconcile(SITE); // the cache still shows the acknowledged version: no second acknowledgement
        cache.remove(SITE.key()); // the object leaves the shard's cache
        handler.reconcile(SITE); // its departure
        handler.reconcile(SITE); // a child's departure, mapped to its owner
        time.advance(HandedOff.TTL.plus(ShardDecorator.SWEEP));
        handler.reconcile(SITE); // a requeue queued before the acknowledgement, as late as it can be

        assertThat(patches).hasSize(1);
        assertThat(acks).hasValue(1);
        assertThat(reads).hasValue(0);
        assertThat(reconciled).as("reconciled before the drain, no deletion delivered").containsExactly("site");
    }

    @Test
    void anAcknowledgementRefusedAsStaleIsTriedAgainShortlyAndTheObjectStaysHeld() throws Exception {
        cache.put(SITE.key(), site("7", "me", true));
        server.put("site", site("8", "me", true)); // changed since the cache's copy, still this shard's

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.requeueAfter(ShardDecorator.RETRY));

        assertThat(acks).hasValue(0);
        cache.remove(SITE.key()); // deleted before the next try
        handler.reconcile(SITE);
        assertThat(reconciled).containsExactly("site (gone)");
    }

    @Test
    void anAcknowledgementWhoseAnswerWasLostIsNotMadeAgainNorItsDepartureADeletion() throws Exception {
        cache.put(SITE.key(), site("7", "me", true));
        server.put("site", site("8", null, false)); // the first acknowledgement landed; its answer never came

        assertThat(handler.reconcile(SITE)).as("refused as stale, then one read").isEqualTo(ReconcileResult.done());
        handler.reconcile(SITE); // the cache has not caught up yet
        cache.remove(SITE.key());
        handler.reconcile(SITE);

        assertThat(reads).hasValue(1);
        assertThat(patches).isEmpty();
        assertThat(reconciled).isEmpty();
    }

    @Test
    void anObjectAssignedHereAgainIsReconciledAndItsDeletionIsDelivered() throws Exception {
        both(site("7", "me", true));
        handler.reconcile(SITE); // acknowledged
        both(site("12", "me", false)); // moved back here later

        handler.reconcile(SITE);
        cache.remove(SITE.key());
        server.remove("site");
        handler.reconcile(SITE);

        assertThat(reconciled).containsExactly("site", "site (gone)");
    }

    @Test
    void aRequestForAnObjectNeverHeldHereIsDroppedWithoutAsking() throws Exception {
        server.put("site", site("9", "other", false));

        handler.reconcile(SITE); // mapped from a watched object to an owner in another shard

        assertThat(reconciled).isEmpty();
        assertThat(reads).hasValue(0);
    }

    @Test
    void anObjectWhoseTokenNamesAnotherShardIsNotReconciledNorItsDepartureADeletion() throws Exception {
        cache.put(SITE.key(), site("7", "other", false));

        assertThat(handler.reconcile(SITE)).isEqualTo(ReconcileResult.done());
        cache.remove(SITE.key());
        handler.reconcile(SITE);

        assertThat(reconciled).isEmpty();
        assertThat(patches).isEmpty();
    }

    @Test
    void whatItRemembersOfObjectsGoneWithoutARequestIsForgottenAfterTheTtl() throws Exception {
        both(site("7", "me", true));
        handler.reconcile(SITE); // acknowledged: remembered at that version
        cache.remove(SITE.key());
        ReconcileRequest arrived = new ReconcileRequest("ns", "arrived");
        cache.put(arrived.key(), named("arrived", site("3", "me", false), Map.of(LABELS.arrival(), "configmaps=0")));
        handler.reconcile(arrived); // held, its arrival passed: remembered
        cache.remove(arrived.key()); // then deleted, and the controller's filter dropped the deletion
        assertThat(decorator.remembered()).isEqualTo(3);

        time.advance(HandedOff.TTL.plus(ShardDecorator.SWEEP));
        ReconcileRequest other = new ReconcileRequest("ns", "other");
        cache.put(other.key(), named("other", site("5", "me", false), Map.of()));
        handler.reconcile(other);

        assertThat(decorator.remembered()).as("only the object just reconciled").isEqualTo(1);
        assertThat(reconciled).containsExactly("arrived", "other");
    }

    @Test
    void anObjectWithoutAResourceVersionIsNeverAcknowledgedUnconditionally() {
        both(site(null, "me", true));

        assertThatThrownBy(() -> handler.reconcile(SITE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("resourceVersion");

        assertThat(patches).isEmpty();
        assertThat(acks).hasValue(0);
    }

    @Test
    void theFilterLetsThisShardsDrainRequestsThroughWhateverTheControllersFilterDrops() {
        EventFilter<ConfigMap> filter = decorator.filter(EventFilter.generationChanged());
        ConfigMap mine = site("7", "me", false);

        assertThat(filter.onUpdate(mine, site("8", "me", true))).isTrue();
        assertThat(filter.onUpdate(mine, site("8", "me", false))).as("a label change").isFalse();
        assertThat(filter.onUpdate(mine, site("8", "other", true))).as("another shard's drain").isFalse();
    }

    /** The object in the shard's cache and on the server alike. */
    private void both(ConfigMap site) {
        cache.put(SITE.key(), site);
        server.put("site", site);
    }

    private static ConfigMap site(@Nullable String resourceVersion, @Nullable String token, boolean drain) {
        ConfigMapBuilder site = new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("site")
                .withResourceVersion(resourceVersion).withGeneration(1L).endMetadata();
        if (token != null) {
            site.editMetadata().addToLabels(LABELS.token(), token).endMetadata();
        }
        if (drain) {
            site.editMetadata().addToLabels(LABELS.drain(), "true").endMetadata();
        }
        return site.build();
    }

    private static ConfigMap named(String name, ConfigMap site, Map<String, String> annotations) {
        return new ConfigMapBuilder(site).editMetadata().withName(name).addToAnnotations(annotations).endMetadata()
                .build();
    }

    /**
     * The API server, as far as the decorator uses it: {@code find}, and a merge patch of the
     * acknowledgement, refused with 409 unless it names the stored object's resourceVersion.
     */
    @SuppressWarnings("unchecked")
    private ResourceClient<ConfigMap> server() {
        return (ResourceClient<ConfigMap>) Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] {ResourceClient.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "inNamespace", "withDeadline" -> proxy;
                    case "find" -> {
                        reads.incrementAndGet();
                        yield Optional.ofNullable(server.get((String) args[0]));
                    }
                    case "patch" -> {
                        String name = (String) args[0];
                        String body = (String) args[2];
                        ConfigMap stored = server.get(name);
                        if (!body.contains("\"resourceVersion\":\"" + stored.getMetadata().getResourceVersion()
                                + "\"")) {
                            throw MemberLockTest.failure("Conflict", 409);
                        }
                        patches.add(body);
                        ConfigMap acked = new ConfigMapBuilder(stored).editMetadata()
                                .removeFromLabels(LABELS.token()).removeFromLabels(LABELS.drain())
                                .withResourceVersion(Long.toString(Long.parseLong(
                                        stored.getMetadata().getResourceVersion()) + 1)).endMetadata().build();
                        server.put(name, acked);
                        yield acked;
                    }
                    case "toString" -> "the fake server's client";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}

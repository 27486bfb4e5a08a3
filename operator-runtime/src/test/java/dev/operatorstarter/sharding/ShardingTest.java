package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.sharding.Membership.Phase;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The facade of one replica's part in a ring, without an API server: what it narrows, registers and
 * decorates, what it refuses, and its member's lifecycle on an in-memory Lease.
 */
class ShardingTest {

    private static final ResourceType<ConfigMap> CONFIG_MAPS = ResourceType.of(ConfigMap.class);
    private static final InformerScope PRIMARIES = InformerScope.namespace("ns").withLabelSelector("mirror=true");
    private static final InformerScope MIRRORS = InformerScope.namespace("ns").withLabelSelector("mirror-of");
    private static final ShardedResource<ConfigMap> MIRRORED = ShardedResource.of(CONFIG_MAPS, List.of(PRIMARIES))
            .owning(CONFIG_MAPS.groupVersionResource(), List.of(MIRRORS));

    private final KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
            TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));
    private final SharedInformerFactory informers = new SharedInformerFactory(client, InformerOptions.defaults());
    private final InMemoryLeaseLock lease = new InMemoryLeaseLock("replica-1");
    private final List<String> recorded = new CopyOnWriteArrayList<>();
    private final ShardingMetrics metrics = new ShardingMetrics() {
        @Override
        public void member(String ring, boolean inTerm) {
            recorded.add(ring + (inTerm ? " in a term" : " out of its term"));
        }
    };
    private final Sharding sharding = Sharding.builder(client, informers, ShardingOptions.builder("mirror", "replica-1",
            "ns").metrics(metrics).build()).lease(lease).build();

    @AfterEach
    void close() {
        sharding.close();
        informers.close();
        client.close();
    }

    @Test
    void itNarrowsAScopeToTheShardsTokenKeepingTheScopesOwnSelector() {
        assertThat(sharding.ring()).isEqualTo("mirror");
        assertThat(sharding.shardId()).isEqualTo("replica-1");
        assertThat(sharding.narrow(PRIMARIES)).isEqualTo(InformerScope.namespace("ns")
                .withLabelSelector("mirror=true,shard.sharding.operatorstarter.dev/mirror=replica-1"));
        assertThat(sharding.narrow(InformerScope.all()).labelSelector()).isEqualTo(sharding.labels().selector());
    }

    @Test
    void itWatchesTheRingsMemberLeasesOnTheManagersFactory() {
        assertThat(sharding.informers()).isSameAs(informers);
        assertThat(informers.informers()).singleElement().satisfies(informer -> assertThat(informer.name())
                .startsWith("leases.coordination.k8s.io"));
    }

    @Test
    void aResourceOwnedByAnotherShardedResourceCannotBeAPrimaryToo() {
        sharding.register(MIRRORED);
        sharding.register(MIRRORED); // the same again: nothing changes

        ShardedResource<Secret> ownedByMirrored = ShardedResource.of(ResourceType.of(Secret.class),
                List.of(InformerScope.all())).owning(CONFIG_MAPS.groupVersionResource(), List.of(MIRRORS));
        ShardedResource<ConfigMap> configMapsAgain = ShardedResource.of(CONFIG_MAPS, List.of(InformerScope.all()));
        ShardedResource<Deployment> deployments = ShardedResource.of(ResourceType.of(Deployment.class),
                List.of(InformerScope.all()));

        assertThatThrownBy(() -> sharding.register(ownedByMirrored)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("configmaps is the primary of one sharded controller and owned by secrets's")
                .hasMessageContaining("one token of a ring only");
        assertThatThrownBy(() -> sharding.register(configMapsAgain)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("owned by configmaps's");
        sharding.register(deployments);
        assertThat(sharding.assigner()).isInstanceOfSatisfying(Assigner.class, assigner -> assertThat(
                assigner.resources()).containsExactly(MIRRORED, deployments));
    }

    @Test
    void aControllerIsDecoratedOnlyForARegisteredResourceAndItsOwnedCachesAreIndexedByOwner() {
        SharedIndexInformer<ConfigMap> mirrors = informers.informerFor(ConfigMap.class, sharding.narrow(MIRRORS));

        assertThatThrownBy(() -> sharding.decorator(MIRRORED, List.of(mirrors)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("register configmaps");

        sharding.register(MIRRORED);
        assertThat(sharding.decorator(MIRRORED, List.of(mirrors))).isInstanceOf(ShardDecorator.class);
        assertThat(mirrors.indexer().indexNames()).contains(MIRRORED.ownerIndex());
        assertThat(sharding.decorator(MIRRORED, List.of(mirrors))).as("decorating twice keeps the one index")
                .isNotNull();
    }

    @Test
    void theOwnedInformersMustComeFromTheFactoryAndCoverExactlyWhatTheResourceOwns() {
        sharding.register(MIRRORED);
        SharedIndexInformer<ConfigMap> elsewhere = SharedIndexInformer.create("configmaps",
                new FakeListerWatcher<ConfigMap>(), ConfigMap.class, InformerOptions.defaults());
        SharedIndexInformer<Secret> secrets = informers.informerFor(Secret.class, sharding.narrow(MIRRORS));

        assertThatThrownBy(() -> sharding.decorator(MIRRORED, List.of(elsewhere)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not made on the sharding's");
        assertThatThrownBy(() -> sharding.decorator(MIRRORED, List.of(secrets)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("caches secrets, which configmaps "
                        + "does not own");
        assertThatThrownBy(() -> sharding.decorator(MIRRORED, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("owns [configmaps], for which no "
                        + "owned informer was given");
    }

    @Test
    void aRegisteredResourceWithoutADecoratedControllerKeepsTheMemberFromStarting() {
        sharding.register(MIRRORED);

        assertThatThrownBy(() -> sharding.start(new Recording())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no sharded controller is decorated for [configmaps]");
        assertThat(sharding.membership().phase()).isEqualTo(Phase.JOINING);
    }

    @Test
    void aMemberRunsItsControllersInItsTermsAndReleasesItsLeaseWhenClosed() {
        Recording shard = new Recording();
        assertThat(sharding.membership().phase()).isEqualTo(Phase.JOINING);
        assertThat(sharding.membership().lease()).isEqualTo("ns/mirror-replica-1");

        sharding.start(shard);

        await().until(() -> shard.events.equals(List.of("started")));
        assertThat(sharding.membership().phase()).isEqualTo(Phase.MEMBER);
        assertThat(sharding.membership().term()).get().extracting(Leadership::isValid).isEqualTo(true);
        assertThat(lease.record().holderIdentity()).isEqualTo("replica-1");
        assertThat(recorded).containsExactly("mirror in a term");
        assertThatThrownBy(() -> sharding.register(MIRRORED)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("has started");
        assertThatThrownBy(() -> sharding.start(shard)).isInstanceOf(IllegalStateException.class);

        sharding.close();

        assertThat(shard.events).containsExactly("started", "stopped");
        assertThat(lease.record().holderIdentity()).as("released").isEmpty();
        assertThat(sharding.membership().phase()).isEqualTo(Phase.LEFT);
        assertThat(recorded).containsExactly("mirror in a term", "mirror out of its term");
    }

    @Test
    void anAbandonedMemberLeavesItsLeaseToExpire() {
        Recording shard = new Recording();
        sharding.start(shard);
        await().until(() -> sharding.membership().phase() == Phase.MEMBER);

        sharding.abandon();
        sharding.close(); // releases nothing after an abandon

        assertThat(shard.events).containsExactly("started", "stopped");
        assertThat(lease.record().holderIdentity()).isEqualTo("replica-1");
        assertThat(sharding.membership().phase()).isEqualTo(Phase.LEFT);
    }

    @Test
    void aReplicaThatDoesNotAssignShowsItsMembershipAndNoCounts() {
        RingStatus status = sharding.status();

        assertThat(status.ring()).isEqualTo("mirror");
        assertThat(status.shardId()).isEqualTo("replica-1");
        assertThat(status.lease()).isEqualTo("ns/mirror-replica-1");
        assertThat(status.phase()).isEqualTo(Phase.JOINING);
        assertThat(status.assigner()).isFalse();
        assertThat(status.members()).isEmpty();
        assertThat(status.pendingDrains()).isNull();
        assertThat(status.unassigned()).isNull();
        assertThat(status.oldestPendingDrain()).isNull();
    }

    @Test
    void aShardedControllerNeedsPrimaryInformersOverDistinctNamespacesMadeOnItsFactory() {
        SharedIndexInformer<ConfigMap> inA = informers.informerFor(ConfigMap.class, sharding.narrow(
                InformerScope.namespace("a")));
        SharedIndexInformer<ConfigMap> inB = informers.informerFor(ConfigMap.class, sharding.narrow(
                InformerScope.namespace("b")));
        SharedIndexInformer<ConfigMap> everywhere = informers.informerFor(ConfigMap.class, sharding.narrow(
                InformerScope.all()));
        SharedIndexInformer<ConfigMap> alsoInA = informers.informerFor(ConfigMap.class, sharding.narrow(
                InformerScope.namespace("a").withLabelSelector("tier=web")));

        sharding.adopt(controller("two-namespaces", List.of(inA, inB))); // fine: each object in one cache
        assertThatThrownBy(() -> sharding.adopt(controller("all-and-a", List.of(everywhere, inA))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("sharded controller all-and-a has primary "
                        + "informers over overlapping namespaces [(all), a]: a sharded controller needs one primary "
                        + "informer, or several over distinct namespaces, so that each object is in one of its caches");
        assertThatThrownBy(() -> sharding.adopt(controller("twice-a", List.of(inA, alsoInA))))
                .hasMessageContaining("overlapping namespaces [a, a]");
        SharedIndexInformer<ConfigMap> elsewhere = new SharedInformerFactory(client, InformerOptions.defaults())
                .informerFor(ConfigMap.class, sharding.narrow(InformerScope.namespace("c")));
        sharding.adopt(controller("alone", List.of(elsewhere))); // one primary cache: nothing to overlap
        assertThatThrownBy(() -> sharding.adopt(controller("elsewhere", List.of(inA, elsewhere))))
                .hasMessageContaining("was not made on the sharding's informer factory");
    }

    private static Controller<ConfigMap> controller(String name, List<SharedIndexInformer<ConfigMap>> primaries) {
        return Controller.builder(ControllerOptions.builder(name).build(), CONFIG_MAPS, primaries)
                .build(request -> ReconcileResult.done());
    }

    /** The shard's controllers, as a manager's group would be: records its terms. */
    private static final class Recording implements LeaderCallbacks {
        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void onStartedLeading(Leadership leadership) {
            events.add("started");
        }

        @Override
        public void onStoppedLeading() {
            events.add("stopped");
        }
    }
}

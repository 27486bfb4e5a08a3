package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
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
import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.ExtensionRefusedException;
import dev.operatorstarter.manager.ManagedRunnable;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.ManagerBuilder;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the sharding plugs into a manager, without an API server; running it is
 * {@code ShardingIT}'s (three managers against the real one).
 */
class ShardingPluginTest {

    private final KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
            TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));
    private final SharedInformerFactory informers = new SharedInformerFactory(client, InformerOptions.defaults());
    private final Sharding sharding = Sharding.builder(client, informers, ShardingOptions.builder("ring", "replica-1",
            "ns").build()).build();

    @AfterEach
    void close() {
        sharding.close();
        informers.close();
        client.close();
    }

    private ManagerBuilder elected() {
        return Manager.builder(client).informers(informers).leaderElection(new InMemoryLeaseLock("replica-1"),
                election -> election);
    }

    private static Controller<ConfigMap> controller(String name) {
        return controller(name, SharedIndexInformer.create("configmaps", new FakeListerWatcher<ConfigMap>(),
                ConfigMap.class, InformerOptions.defaults()));
    }

    private static Controller<ConfigMap> controller(String name, SharedIndexInformer<ConfigMap> primary) {
        return Controller.builder(ControllerOptions.builder(name).build(), ResourceType.of(ConfigMap.class), primary)
                .build(request -> ReconcileResult.done());
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withResourceVersion("5")
                .endMetadata().build();
    }

    @Test
    void shardingWithoutLeaderElectionIsRefusedSayingWhy() {
        assertThatThrownBy(() -> Manager.builder(client).informers(informers).plugin(sharding).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("sharding needs leader election: the elected replica assigns objects to the ring's members "
                        + "(ManagerBuilder.leaderElection)");
    }

    @Test
    void aShardedManagerRunsTheShardingsInformerFactoryAndNoOther() {
        try (Manager manager = elected().plugin(sharding).build()) {
            assertThat(manager.informers()).isSameAs(informers);
            assertThat(manager.controllers()).isEmpty();
        }
        try (SharedInformerFactory other = new SharedInformerFactory(client, InformerOptions.defaults())) {
            assertThatThrownBy(() -> elected().informers(other).plugin(sharding).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must run the informer factory the sharding of ring ring was built on");
        }
    }

    @Test
    void shardedControllersAreAddedOnlyToAShardedManagerAndListedAfterTheLeadersAsSharded() {
        try (Manager plain = elected().build()) {
            assertThatThrownBy(() -> plain.add(ManagedRunnable.of(controller("mirror")), RunnableGroup.MEMBER_TERM))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("no plugin gives the member terms");
            assertThat(plain.isActive(RunnableGroup.MEMBER_TERM)).isFalse();
        }
        try (Manager manager = elected().plugin(sharding).build()) {
            manager.add(ManagedRunnable.of(controller("mirror")), RunnableGroup.MEMBER_TERM)
                    .add(ManagedRunnable.of(controller("report")), RunnableGroup.LEADER_TERM);

            assertThat(manager.controllers()).extracting(ControllerStatus::name, ControllerStatus::sharded)
                    .containsExactly(tuple("report", false),
                            tuple("mirror", true));
            assertThat(manager.isActive(RunnableGroup.MEMBER_TERM)).isFalse();
        }
    }

    @Test
    void theControllerBuilderNarrowsAShardedControllersPrimaryAndOwnedCachesButNotItsWatchedOnes() {
        try (Manager manager = elected().plugin(sharding).build()) {
            Controller<ConfigMap> controller = manager.controller(ConfigMap.class).namespaces("ns")
                    .owns(io.fabric8.kubernetes.api.model.Secret.class)
                    .watches(io.fabric8.kubernetes.api.model.Service.class, service -> java.util.List.of())
                    .extendedBy(sharding).reconcile(request -> ReconcileResult.done());

            String token = "shard.sharding.operatorstarter.dev/ring=replica-1";
            assertThat(informers.scopeOf(controller.primaries().get(0))).get()
                    .satisfies(scope -> assertThat(scope.labelSelector()).isEqualTo(token));
            assertThat(informers.informers()).extracting(informer -> informers.scopeOf(informer).orElseThrow()
                    .labelSelector(), informer -> informers.resourceOf(informer).orElseThrow().resource())
                    .contains(tuple(token, "configmaps"), tuple(token, "secrets"), tuple("", "services"));
            assertThat(manager.controllers()).singleElement()
                    .satisfies(status -> assertThat(status.group()).isEqualTo(RunnableGroup.MEMBER_TERM));
        }
    }

    @Test
    void aShardedControllerThatOwnsAndWatchesOneResourceIsRefusedSayingWhy() {
        try (Manager manager = elected().plugin(sharding).build()) {
            assertThatThrownBy(() -> manager.controller(ConfigMap.class).owns(io.fabric8.kubernetes.api.model.Secret.class)
                    .watches(io.fabric8.kubernetes.api.model.Secret.class, secret -> java.util.List.of())
                    .extendedBy(sharding).reconcile(request -> ReconcileResult.done()))
                    .isInstanceOf(ExtensionRefusedException.class)
                    .hasMessageStartingWith("controller configmap cannot be extended: ")
                    .hasMessageContaining("controller configmap owns and watches Secret (secrets)")
                    .cause().isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aShardedControllersPrimaryCacheIsReportedAsTheShardsObjectsUnderTheControllersName() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FakeListerWatcher<ConfigMap> server = new FakeListerWatcher<>();
        server.answerLists(options -> FakeListerWatcher.page("10", "", configMap("a"), configMap("b")));
        SharedIndexInformer<ConfigMap> share = SharedIndexInformer.create("configmaps", server, ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        Sharding measured = Sharding.builder(client, informers, ShardingOptions.builder("ring", "replica-1", "ns")
                .metrics(ShardingMetrics.micrometer(registry)).build()).build();
        try (Manager manager = elected().plugin(measured).build()) {
            measured.adopt(controller("mirror", share));
            Gauge objects = registry.get("controller.sharding.objects").tags("ring", "ring", "controller", "mirror")
                    .gauge();
            assertThat(objects.value()).isZero();

            share.start();
            await().atMost(Duration.ofSeconds(10)).until(share::hasSynced);

            assertThat(objects.value()).isEqualTo(2);
        } finally {
            share.stop();
        }
    }

    @Test
    void aManagerClosedBeforeItStartedLeavesTheRingWithoutEverJoining() {
        Manager manager = elected().plugin(sharding).build();

        manager.close();

        assertThat(sharding.membership().phase()).isEqualTo(Membership.Phase.LEFT);
        assertThatThrownBy(() -> sharding.start(sharding.assigner()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has closed");
    }
}

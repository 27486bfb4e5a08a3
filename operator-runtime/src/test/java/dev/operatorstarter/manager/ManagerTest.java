package dev.operatorstarter.manager;

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
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.sharding.Membership;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.sharding.ShardingMetrics;
import dev.operatorstarter.sharding.ShardingOptions;
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
 * How a manager is put together with sharding, without an API server; running it is
 * {@code ShardingIT}'s (three managers against the real one).
 */
class ManagerTest {

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

    private Manager.Builder elected() {
        return Manager.builder(client).leaderElection(callbacks -> new LeaderElector(LeaderElectionConfig.builder(
                new InMemoryLeaseLock("replica-1"), callbacks).build()));
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
        assertThatThrownBy(() -> Manager.builder(client).sharding(sharding).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("sharding needs leader election: the elected replica assigns objects to the ring's members "
                        + "(Manager.Builder.leaderElection)");
    }

    @Test
    void aShardedManagerRunsTheShardingsInformerFactoryAndNoOther() {
        try (Manager manager = elected().sharding(sharding).build()) {
            assertThat(manager.informers()).isSameAs(informers);
            assertThat(manager.sharding()).containsSame(sharding);
        }
        try (SharedInformerFactory other = new SharedInformerFactory(client, InformerOptions.defaults())) {
            assertThatThrownBy(() -> elected().informers(other).sharding(sharding).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("must run the informer factory the sharding of ring ring was built on");
        }
    }

    @Test
    void shardedControllersAreAddedOnlyToAShardedManagerAndListedAfterTheLeadersAsSharded() {
        try (Manager plain = elected().build()) {
            assertThatThrownBy(() -> plain.addSharded(controller("mirror"), "configmaps"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("to a manager with sharding");
            assertThat(plain.sharding()).isEmpty();
            assertThat(plain.isMember()).isFalse();
        }
        try (Manager manager = elected().sharding(sharding).build()) {
            manager.addSharded(controller("mirror"), "configmaps").add(controller("report"), "configmaps");

            assertThat(manager.controllers()).extracting(ControllerStatus::name, ControllerStatus::sharded)
                    .containsExactly(tuple("report", false),
                            tuple("mirror", true));
            assertThat(manager.isMember()).isFalse();
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
        try (Manager manager = elected().sharding(measured).build()) {
            manager.addSharded(controller("mirror", share), "configmaps");
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
        Manager manager = elected().sharding(sharding).build();

        manager.close();

        assertThat(sharding.membership().phase()).isEqualTo(Membership.Phase.LEFT);
        assertThatThrownBy(() -> sharding.start(manager.sharding().orElseThrow().assigner()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has closed");
    }
}

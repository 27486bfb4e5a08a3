package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.autoconfigure.InvalidShardingException;
import dev.operatorstarter.autoconfigure.ShardingCustomizer;
import dev.operatorstarter.autoconfigure.wiring.OperatorAutoConfigurationTest.LambdaReconcilerConfiguration;
import dev.operatorstarter.autoconfigure.wiring.OperatorAutoConfigurationTest.WidgetReconcilerConfiguration;
import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.sharding.Sharding;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** {@code operator.sharding.*}: what it shards, how, and what it refuses (no server: nothing starts). */
class OperatorShardingAutoConfigurationTest {

    @TempDir
    Path folder;

    private ApplicationContextRunner runner() {
        return OperatorAutoConfigurationTest.runner(folder);
    }

    @Test
    void isOffByDefault() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(Sharding.class).doesNotHaveBean(ShardSettings.class);
            Manager manager = context.getBean(Manager.class);
            assertThat(context.getBean(OperatorStatus.class).sharding().enabled()).isFalse();
            assertThat(manager.controllers()).extracting(ControllerStatus::sharded).containsExactly(false);
        });
    }

    @Test
    void shardsEveryReconcilerByDefaultCachingOnlyItsShareOfThePrimaryAndOwnedResources() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "spring.application.name=Widget_Operator")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Sharding sharding = context.getBean(Sharding.class);
                    assertThat(sharding.ring()).isEqualTo("widget-operator");
                    assertThat(sharding.shardId()).matches("[-a-z0-9]+-[0-9a-f]{6}");
                    String token = sharding.labels().selector();
                    assertThat(token).isEqualTo("shard.sharding.operatorstarter.dev/widget-operator="
                            + sharding.shardId());
                    Manager manager = context.getBean(Manager.class);
                    assertThat(context.getBean(OperatorStatus.class).sharding().enabled()).isTrue();
                    assertThat(manager.controllers()).extracting(ControllerStatus::name, ControllerStatus::sharded)
                            .containsExactly(org.assertj.core.groups.Tuple.tuple("widget", true));
                    // the member Leases are where the leader-election Lease is: the kubeconfig context's namespace
                    assertThat(sharding.membership().lease()).isEqualTo(
                            context.getBean(LeaseSettings.class).namespace() + "/widget-operator-" + sharding.shardId());
                    assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                            .contains("widgets.starter.operatorstarter.dev [" + token + "]", "configmaps [" + token + "]",
                                    "secrets") // watched: whole
                            .doesNotContain("widgets.starter.operatorstarter.dev", "configmaps");
                });
    }

    @Test
    void shardsOnlyTheNamedControllersAndLeavesTheOthersToTheLeader() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class, LambdaReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.sharding.controllers=settings",
                        "operator.sharding.ring-name=ring-1", "operator.sharding.shard-id=pod-a",
                        "operator.sharding.lease-namespace=shards")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Sharding sharding = context.getBean(Sharding.class);
                    assertThat(sharding.membership().lease()).isEqualTo("shards/ring-1-pod-a");
                    assertThat(context.getBean(Manager.class).controllers())
                            .extracting(ControllerStatus::name, ControllerStatus::sharded).containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple("widget", false),
                                    org.assertj.core.groups.Tuple.tuple("settings", true));
                    assertThat(context.getBean(SharedInformerFactory.class).informers()).extracting(i -> i.name())
                            .contains("widgets.starter.operatorstarter.dev", // not sharded
                                    "configmaps", // the widget controller's owned ConfigMaps: whole
                                    "configmaps [shard.sharding.operatorstarter.dev/ring-1=pod-a]"); // settings' share
                });
    }

    @Test
    void refusesAControllerNameThatNamesNoReconciler() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.sharding.controllers=widget,gadget")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidShardingException.class)
                            .hasMessage("operator.sharding.controllers names 'gadget', which is not the name of a "
                                    + "@Reconciler's controller");
                    FailureAnalysis analysis = OperatorAutoConfigurationTest.analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).startsWith("The operator's sharding "
                            + "(operator.sharding.enabled=true) cannot start: operator.sharding.controllers names 'gadget'");
                    assertThat(analysis.getAction()).startsWith("Name one of [widget]");
                });
    }

    @Test
    void refusesShardingWithoutLeaderElection() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.leader-election.enabled=false")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(InvalidShardingException.class)
                            .hasMessageContaining("operator.leader-election.enabled is false, and sharding needs leader "
                                    + "election");
                    assertThat(OperatorAutoConfigurationTest.analyze(context.getStartupFailure()).getAction())
                            .startsWith("Remove operator.leader-election.enabled=false");
                });
    }

    @Test
    void refusesARingNameOrShardIdThatIsNotADnsLabel() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.sharding.ring-name=My_Ring")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(InvalidShardingException.class)
                        .hasMessage("operator.sharding.ring-name is 'My_Ring', which is not a DNS label"));
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.sharding.shard-id=-a")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(InvalidShardingException.class)
                        .hasMessage("operator.sharding.shard-id is '-a', which is not a DNS label"));
    }

    @Test
    void refusesLeaseTimingsThatLeaderElectionWouldRefuseNamingTheField() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.leader-election.lease-duration=10s")
                .run(context -> {
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(IllegalArgumentException.class)
                            .hasMessage("leaseDuration (PT10S) must be greater than renewDeadline (PT10S)");
                    assertThat(OperatorAutoConfigurationTest.analyze(context.getStartupFailure()).getDescription())
                            .contains("cannot be set up: leaseDuration (PT10S) must be greater than renewDeadline");
                });
    }

    @Test
    void customizersShapeTheOptionsAfterTheProperties() {
        runner().withUserConfiguration(WidgetReconcilerConfiguration.class, Customized.class)
                .withPropertyValues("operator.sharding.enabled=true", "operator.sharding.virtual-nodes=50")
                .run(context -> {
                    // 1001 comes from the customizer only: it ran after the properties, and its value is validated
                    assertThat(context.getStartupFailure()).rootCause().isInstanceOf(IllegalArgumentException.class)
                            .hasMessage("virtualNodes must be 1 to 1000, was 1001");
                    assertThat(OperatorAutoConfigurationTest.analyze(context.getStartupFailure()).getDescription())
                            .contains("cannot start: the ring operator cannot be set up: virtualNodes must be 1 to 1000");
                });
    }

    @Test
    void refusesAShardedControllerThatOwnsAndWatchesOneResource() {
        runner().withUserConfiguration(OwnsAndWatches.class)
                .withPropertyValues("operator.sharding.enabled=true")
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(InvalidShardingException.class)
                        .hasMessageContaining("owns and watches ConfigMap"));
    }

    @Test
    void propertiesHaveTheDocumentedDefaults() {
        runner().withPropertyValues("operator.sharding.enabled=true").run(context -> {
            var sharding = context.getBean(dev.operatorstarter.autoconfigure.OperatorProperties.class).sharding();
            assertThat(sharding.virtualNodes()).isEqualTo(100);
            assertThat(sharding.controllers()).isEmpty();
            assertThat(sharding.resyncPeriod()).hasMinutes(5);
            assertThat(sharding.assignerWorkers()).isEqualTo(4);
            assertThat(sharding.arrivalTimeout()).hasSeconds(10);
            assertThat(sharding.orphanTtl()).hasMinutes(1);
            assertThat(context.getBean(Sharding.class).ring()).isEqualTo("operator");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Customized {
        @Bean
        ShardingCustomizer shardingCustomizer() {
            return options -> options.virtualNodes(1001);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnsAndWatches {
        @Bean
        @Reconciler(owns = ConfigMap.class, watches = ConfigMapsToWidgets.class)
        ReconcileHandler<dev.operatorstarter.autoconfigure.Widget> widgets() {
            return request -> ReconcileResult.done();
        }
    }

    static class ConfigMapsToWidgets implements RequestMapper<ConfigMap> {
        @Override
        public Collection<ReconcileRequest> map(ConfigMap configMap) {
            return List.of(new ReconcileRequest(configMap.getMetadata().getNamespace(), "widget"));
        }
    }
}

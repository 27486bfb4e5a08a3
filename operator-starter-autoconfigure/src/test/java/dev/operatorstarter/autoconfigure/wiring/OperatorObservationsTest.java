package dev.operatorstarter.autoconfigure.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.autoconfigure.ControllerCustomizer;
import dev.operatorstarter.client.KubernetesClient;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The application's {@link ObservationRegistry} reaches the client (its requests' observations)
 * and every controller (the reconcile observations); without one, both get
 * {@link ObservationRegistry#NOOP} and observe nothing.
 */
class OperatorObservationsTest {

    @TempDir
    Path folder;

    /** The registry each controller was given, by controller name. */
    private final Map<String, ObservationRegistry> controllerRegistries = new ConcurrentHashMap<>();

    private ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OperatorMetricsAutoConfiguration.class,
                        OperatorClientAutoConfiguration.class, OperatorInformersAutoConfiguration.class,
                        OperatorEventsAutoConfiguration.class, OperatorLeaderElectionAutoConfiguration.class,
                        OperatorControllersAutoConfiguration.class))
                .withPropertyValues("operator.client.kubeconfig=" + Kubeconfigs.twoContexts(folder),
                        "operator.informers.wait-for-sync-on-startup=false", "operator.leader-election.enabled=false")
                .withUserConfiguration(OperatorAutoConfigurationTest.WidgetReconcilerConfiguration.class)
                .withBean(ControllerCustomizer.class, () -> (name, options) -> controllerRegistries.put(name,
                        options.build().observationRegistry()));
    }

    @Test
    void theApplicationsObservationRegistryObservesRequestsAndReconciles() {
        ObservationRegistry registry = ObservationRegistry.create();
        runner().withBean(ObservationRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(KubernetesClient.class).rest().options().observationRegistry()).isSameAs(registry);
            assertThat(controllerRegistries).containsEntry("widget", registry);
        });
    }

    @Test
    void withoutARegistryNothingIsObserved() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(KubernetesClient.class).rest().options().observationRegistry())
                    .isSameAs(ObservationRegistry.NOOP);
            assertThat(controllerRegistries).containsEntry("widget", ObservationRegistry.NOOP);
        });
    }
}

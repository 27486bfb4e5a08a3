package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The {@code operator.reconcile} observation around each reconcile, on an informer fed from memory. */
class ReconcileObservationTest {

    private final TestObservationRegistry observations = TestObservationRegistry.create();
    private SharedIndexInformer<ConfigMap> informer;
    private Controller<ConfigMap> controller;

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName(name).withResourceVersion("1")
                .endMetadata().build();
    }

    private void start(ObservationRegistry registry, ReconcileHandler<ConfigMap> handler, String... names)
            throws InterruptedException {
        informer = SharedIndexInformer.create("configmaps",
                FakeListerWatcher.listing(java.util.Arrays.stream(names).map(ReconcileObservationTest::configMap).toList()),
                ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        controller = Controller.builder(ControllerOptions.builder("gadgets").observationRegistry(registry)
                        .rateLimiter(RateLimiter.exponential(Duration.ofMillis(1), Duration.ofMillis(20))).build(),
                ResourceType.of(ConfigMap.class), informer).build(handler);
        controller.start(() -> true);
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(5));
        }
        if (informer != null) {
            informer.stop();
        }
    }

    @Test
    void eachReconcileIsObservedWithItsControllerResultAndObject() throws Exception {
        start(observations, request -> ReconcileResult.requeueAfter(Duration.ofHours(1)), "a");

        await().untilAsserted(() -> TestObservationRegistryAssert.assertThat(observations)
                .hasObservationWithNameEqualTo("operator.reconcile").that()
                .hasBeenStopped()
                .hasContextualNameEqualTo("reconcile gadgets")
                .hasLowCardinalityKeyValue("controller", "gadgets")
                .hasLowCardinalityKeyValue("result", "requeue_after")
                .hasHighCardinalityKeyValue("namespace", "ns")
                .hasHighCardinalityKeyValue("name", "a")
                .doesNotHaveError());
    }

    @Test
    void aReconcileThatThrowsEndsItsObservationWithTheErrorAndResultError() throws Exception {
        IllegalStateException failure = new IllegalStateException("the bucket is full");
        start(observations, request -> {
            if (request.name().equals("b")) {
                throw failure;
            }
            return ReconcileResult.done();
        }, "a", "b");

        await().untilAsserted(() -> TestObservationRegistryAssert.assertThat(observations)
                .hasAnObservation(observation -> observation.hasNameEqualTo("operator.reconcile")
                        .hasHighCardinalityKeyValue("name", "b")
                        .hasLowCardinalityKeyValue("result", "error").hasError(failure))
                .hasAnObservation(observation -> observation.hasNameEqualTo("operator.reconcile")
                        .hasHighCardinalityKeyValue("name", "a")
                        .hasLowCardinalityKeyValue("result", "success").doesNotHaveError()));
    }

    @Test
    void theReconcilesObservationIsCurrentWhileTheHandlerRuns() throws Exception {
        AtomicReference<Observation> current = new AtomicReference<>();
        start(observations, request -> {
            current.set(observations.getCurrentObservation());
            return ReconcileResult.done();
        }, "a");

        await().until(() -> current.get() != null);
        assertThat(current.get().getContextView().getName()).isEqualTo("operator.reconcile");
        assertThat(current.get().getContextView().getHighCardinalityKeyValue("name").getValue()).isEqualTo("a");
    }
}

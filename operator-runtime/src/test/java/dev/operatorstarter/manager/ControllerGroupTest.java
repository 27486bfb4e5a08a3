package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.testing.FakeLeadership;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Leadership changes as the elector reports them; the controllers' work is covered by the ITs. */
class ControllerGroupTest {

    @Test
    void theControllersOfATermReconcileNothingOnceTheTermIsNoLongerValid() throws Exception {
        SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps",
                FakeListerWatcher.listing(List.of(new ConfigMapBuilder().withNewMetadata().withNamespace("ns")
                        .withName("a").withResourceVersion("1").endMetadata().build())),
                ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        List<String> reconciled = new CopyOnWriteArrayList<>();
        Controller<ConfigMap> controller = Controller.builder(ControllerOptions.builder("gated").build(),
                ResourceType.of(ConfigMap.class), informer).build(request -> {
                    reconciled.add(request.name());
                    return ReconcileResult.done();
                });
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system());
        manager.add(controller, "configmaps");
        try {
            FakeLeadership term = new FakeLeadership();
            manager.onStartedLeading(term);
            await().until(() -> reconciled.equals(List.of("a")));

            term.setValid(false); // renewals stopped; the elector has not ended the term yet
            int checksSoFar = term.checks();
            controller.enqueue(new ReconcileRequest("ns", "b"));
            await().until(() -> term.checks() >= checksSoFar + 2 || reconciled.size() > 1);
            assertThat(reconciled).containsExactly("a");
            assertThat(controller.isRunning()).isTrue();
        } finally {
            manager.close();
            informer.stop();
        }
    }

    @Test
    void afterALostTermAReelectingReplicaRunsItsControllersAgainInTheNextTerm() {
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system());
        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();

        manager.onStoppedLeading();
        assertThat(manager.isActive()).isFalse();

        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();
    }

    @Test
    void withShutdownOnLossTheHookRunsOnceAndNoLaterTermStartsTheControllers() {
        AtomicInteger shutdowns = new AtomicInteger();
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), shutdowns::incrementAndGet, TimeSource.system());
        manager.onStartedLeading(new FakeLeadership());

        manager.onStoppedLeading();
        manager.onStartedLeading(new FakeLeadership()); // the lease was won back before the context closed
        manager.onStoppedLeading();

        assertThat(shutdowns).hasValue(1);
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void aClosedManagerStartsNothing() {
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system());
        manager.close();
        manager.startAll();
        assertThat(manager.isActive()).isFalse();
    }
}

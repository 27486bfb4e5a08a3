package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.Uninterruptibly;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaderCallbacks;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.testing.FakeLeadership;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
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
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();

        manager.onStoppedLeading();
        assertThat(manager.isActive()).isFalse();

        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();
    }

    @Test
    void aTermThatEndedBeforeItsStartRanStartsNothingAndTheNextTermStartsAsUsual() {
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
        List<String> tasks = new CopyOnWriteArrayList<>();
        manager.addTermTask(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                tasks.add("started");
            }

            @Override
            public void onStoppedLeading() {
                tasks.add("stopped");
            }
        });
        FakeLeadership late = new FakeLeadership();
        late.end();
        manager.onStoppedLeading(); // the elector ended the term before its starting thread ran

        manager.onStartedLeading(late);

        assertThat(manager.isActive()).as("no controller waits on a dead term's gate").isFalse();
        assertThat(tasks).doesNotContain("started");
        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();
        assertThat(tasks).contains("started");
    }

    @Test
    void withShutdownOnLossTheHookRunsOnceAndNoLaterTermStartsTheControllers() {
        AtomicInteger shutdowns = new AtomicInteger();
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), shutdowns::incrementAndGet, TimeSource.system(), false);
        manager.onStartedLeading(new FakeLeadership());

        manager.onStoppedLeading();
        manager.onStartedLeading(new FakeLeadership()); // the lease was won back before the context closed
        manager.onStoppedLeading();

        assertThat(shutdowns).hasValue(1);
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void aClosedManagerStartsNothing() {
        ControllerGroup manager = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
        manager.close();
        manager.startAll();
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void termTasksStartAfterTheControllersInEachTermAndStopBeforeThem() throws Exception {
        SharedIndexInformer<ConfigMap> informer = informer();
        Controller<ConfigMap> controller = controller(informer, request -> ReconcileResult.done());
        List<String> events = new CopyOnWriteArrayList<>();
        ControllerGroup leader = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
        leader.add(controller, "configmaps");
        leader.addTermTask(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                events.add("task started, controller running: " + controller.isRunning());
            }

            @Override
            public void onStoppedLeading() {
                events.add("task stopped, controller running: " + controller.isRunning());
            }
        });
        try {
            leader.onStartedLeading(new FakeLeadership());
            leader.onStoppedLeading();
            leader.onStartedLeading(new FakeLeadership());
            leader.close();
            leader.onStoppedLeading(); // the elector ends the term after the close: the task stopped already

            assertThat(events).containsExactly("task started, controller running: true",
                    "task stopped, controller running: true", "task started, controller running: true",
                    "task stopped, controller running: true");
            assertThat(controller.isRunning()).isFalse();
        } finally {
            informer.stop();
        }
    }

    @Test
    void withoutATermTheTermTasksDoNotRun() {
        List<String> events = new CopyOnWriteArrayList<>();
        ControllerGroup group = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), false);
        group.addTermTask(leadership -> events.add("started"));

        group.startAll(); // no election
        group.close();

        assertThat(events).isEmpty();
    }

    @Test
    void closeSaysWhetherEveryReconcileFinishedInTime() throws Exception {
        SharedIndexInformer<ConfigMap> informer = informer();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch reconciling = new CountDownLatch(1);
        Controller<ConfigMap> stubborn = stubborn(informer, reconciling, release);
        ControllerGroup shard = new ControllerGroup(Duration.ofMillis(100), null, TimeSource.system(), true);
        shard.add(stubborn, "configmaps");
        ControllerGroup quick = new ControllerGroup(Duration.ofSeconds(1), null, TimeSource.system(), true);
        quick.add(controller(informer, request -> ReconcileResult.done()), "configmaps");
        try {
            shard.onStartedLeading(new FakeLeadership());
            quick.onStartedLeading(new FakeLeadership());
            assertThat(reconciling.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.status()).singleElement().satisfies(status -> assertThat(status.sharded()).isTrue());

            assertThat(shard.close()).as("a reconcile outlived the shutdown timeout").isFalse();
            assertThat(quick.close()).isTrue();
        } finally {
            release.countDown();
            informer.stop();
        }
    }

    @Test
    void aReconcileThatOutlivedTheEndOfATermKeepsTheGroupFromClosingDrainedWhileItRuns() throws Exception {
        SharedIndexInformer<ConfigMap> informer = informer();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch reconciling = new CountDownLatch(1);
        Controller<ConfigMap> stubborn = stubborn(informer, reconciling, release);
        ControllerGroup shard = new ControllerGroup(Duration.ofSeconds(5), null, TimeSource.system(), true);
        shard.add(stubborn, "configmaps");
        try {
            shard.onStartedLeading(new FakeLeadership());
            assertThat(reconciling.await(30, TimeUnit.SECONDS)).isTrue();
            shard.onStoppedLeading(); // gives up on the reconcile after a second; it goes on regardless

            assertThat(stubborn.isRunning()).isFalse();
            assertThat(stubborn.reconcilesInFlight()).isEqualTo(1);
            assertThat(shard.close()).isFalse();

            release.countDown();
            await().until(() -> stubborn.reconcilesInFlight() == 0);
        } finally {
            release.countDown();
            informer.stop();
        }
    }

    private static SharedIndexInformer<ConfigMap> informer() {
        SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps",
                FakeListerWatcher.listing(List.of(new ConfigMapBuilder().withNewMetadata().withNamespace("ns")
                        .withName("a").withResourceVersion("1").endMetadata().build())),
                ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        return informer;
    }

    /** A controller whose reconcile says it began, then runs until {@code release} opens, ignoring interrupts. */
    private static Controller<ConfigMap> stubborn(SharedIndexInformer<ConfigMap> informer, CountDownLatch reconciling,
            CountDownLatch release) {
        return controller(informer, request -> {
            reconciling.countDown();
            Uninterruptibly.await(release);
            return ReconcileResult.done();
        });
    }

    private static Controller<ConfigMap> controller(SharedIndexInformer<ConfigMap> informer,
            ReconcileHandler<ConfigMap> handler) {
        return Controller.builder(ControllerOptions.builder("gated").build(), ResourceType.of(ConfigMap.class), informer)
                .build(handler);
    }
}

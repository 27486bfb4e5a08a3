package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
class RunnablesTest {

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
        Runnables manager = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        manager.add(ManagedRunnable.of(controller));
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
        Runnables manager = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();

        manager.onStoppedLeading();
        assertThat(manager.isActive()).isFalse();

        manager.onStartedLeading(new FakeLeadership());
        assertThat(manager.isActive()).isTrue();
    }

    @Test
    void aTermThatEndedBeforeItsStartRanStartsNothingAndTheNextTermStartsAsUsual() {
        Runnables manager = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        List<String> tasks = new CopyOnWriteArrayList<>();
        manager.add(task(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                tasks.add("started");
            }

            @Override
            public void onStoppedLeading() {
                tasks.add("stopped");
            }
        }));
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
        Runnables manager = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), shutdowns::incrementAndGet, TimeSource.system());
        manager.onStartedLeading(new FakeLeadership());

        manager.onStoppedLeading();
        manager.onStartedLeading(new FakeLeadership()); // the lease was won back before the context closed
        manager.onStoppedLeading();

        assertThat(shutdowns).hasValue(1);
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void aClosedManagerStartsNothing() {
        Runnables manager = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        manager.close();
        manager.startOnce();
        assertThat(manager.isActive()).isFalse();
    }

    @Test
    void aTaskAddedAfterTheControllerStartsAfterItInEachTermAndStopsBeforeIt() throws Exception {
        SharedIndexInformer<ConfigMap> informer = informer();
        Controller<ConfigMap> controller = controller(informer, request -> ReconcileResult.done());
        List<String> events = new CopyOnWriteArrayList<>();
        Runnables leader = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        leader.add(ManagedRunnable.of(controller));
        leader.add(task(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                events.add("task started, controller running: " + controller.isRunning());
            }

            @Override
            public void onStoppedLeading() {
                events.add("task stopped, controller running: " + controller.isRunning());
            }
        }));
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
    void withoutElectionTheGroupRunsItsRunnablesOnceInAnEndlessTermUntilClosed() {
        List<String> events = new CopyOnWriteArrayList<>();
        Runnables group = new Runnables(RunnableGroup.LEADER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        group.add(task(new LeaderCallbacks() {
            @Override
            public void onStartedLeading(Leadership leadership) {
                events.add("started, valid: " + leadership.isValid());
            }

            @Override
            public void onStoppedLeading() {
                events.add("stopped");
            }
        }));

        group.startOnce(); // no election
        assertThat(group.isActive()).isTrue();
        group.close();

        assertThat(events).containsExactly("started, valid: true", "stopped");
        assertThat(group.isActive()).isFalse();
    }

    @Test
    void runnablesStartInTheOrderAddedAndStopInReverseAndAFailedStartDoesNotStopTheOthers() {
        List<String> events = new CopyOnWriteArrayList<>();
        Runnables group = new Runnables(RunnableGroup.ALWAYS, Duration.ofSeconds(1), null, TimeSource.system());
        group.add(named("first", events, false));
        group.add(named("broken", events, true));
        group.add(named("third", events, false));

        group.startOnce();
        group.close();

        assertThat(events).containsExactly("first started", "broken started", "third started", "third stopped",
                "broken stopped", "first stopped");
        assertThat(group.startError(group.runnables().get(1))).isEqualTo("broken cannot start");
    }

    @Test
    void theCachesGroupTakesNoRunnable() {
        Runnables caches = new Runnables(RunnableGroup.CACHES, Duration.ofSeconds(1), null, TimeSource.system());
        assertThatThrownBy(() -> caches.add(named("server", new CopyOnWriteArrayList<>(), false)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("informers only");
    }

    private static ManagedRunnable named(String name, List<String> events, boolean failToStart) {
        return new ManagedRunnable() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void start(Leadership term) {
                events.add(name + " started");
                if (failToStart) {
                    throw new IllegalStateException(name + " cannot start");
                }
            }

            @Override
            public boolean stop(Duration drain) {
                events.add(name + " stopped");
                return true;
            }
        };
    }

    /** A leader-callbacks task as a runnable, as the sharding's assigner is one. */
    private static ManagedRunnable task(LeaderCallbacks callbacks) {
        return ManagedRunnable.of("task", callbacks);
    }

    @Test
    void closeSaysWhetherEveryReconcileFinishedInTime() throws Exception {
        SharedIndexInformer<ConfigMap> informer = informer();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch reconciling = new CountDownLatch(1);
        Controller<ConfigMap> stubborn = stubborn(informer, reconciling, release);
        Runnables shard = new Runnables(RunnableGroup.MEMBER_TERM, Duration.ofMillis(100), null, TimeSource.system());
        shard.add(ManagedRunnable.of(stubborn));
        Runnables quick = new Runnables(RunnableGroup.MEMBER_TERM, Duration.ofSeconds(1), null, TimeSource.system());
        quick.add(ManagedRunnable.of(controller(informer, request -> ReconcileResult.done())));
        try {
            shard.onStartedLeading(new FakeLeadership());
            quick.onStartedLeading(new FakeLeadership());
            assertThat(reconciling.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(ManagedController.statuses(List.of(shard))).singleElement().satisfies(status -> assertThat(status.sharded()).isTrue());

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
        Runnables shard = new Runnables(RunnableGroup.MEMBER_TERM, Duration.ofSeconds(5), null, TimeSource.system());
        shard.add(ManagedRunnable.of(stubborn));
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

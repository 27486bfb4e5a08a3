package dev.operatorstarter.controller;

import static dev.operatorstarter.controller.ControllerTest.configMap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.workqueue.PriorityQueue;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which requests the controller queues at which priority, and what that does to the order of reconciles. */
class ControllerPriorityTest {

    private static final int LISTED = 20;

    private SharedIndexInformer<ConfigMap> informer;
    private Controller<ConfigMap> controller;

    @AfterEach
    void stop() throws InterruptedException {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(5));
        }
        if (informer != null) {
            informer.stop();
        }
    }

    /**
     * A restart with {@value #LISTED} objects, the first of them being reconciled (held) when an
     * update of a listed object and a new object arrive: with the priority queue both are
     * reconciled next; in FIFO order the update keeps its place in the list and the new object
     * waits for the end of it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void freshChangesAfterARestartGoAheadOfTheInitialListUnlessTheQueueIsFifo(boolean priorityQueue) throws Exception {
        List<ConfigMap> listed = new ArrayList<>();
        for (int i = 0; i < LISTED; i++) {
            listed.add(configMap(String.format("c-%02d", i), "1"));
        }
        FakeListerWatcher<ConfigMap> server = FakeListerWatcher.listing(listed);
        informer = SharedIndexInformer.create("configmaps", server, ConfigMap.class,
                InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        List<String> reconciled = new CopyOnWriteArrayList<>();
        CountDownLatch release = new CountDownLatch(1);
        controller = Controller.builder(ControllerOptions.builder("priorities").priorityQueue(priorityQueue).build(),
                ResourceType.of(ConfigMap.class), informer).build(request -> {
                    reconciled.add(request.name());
                    release.await(10, TimeUnit.SECONDS);
                    return ReconcileResult.done();
                });
        controller.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == 1);

        // The informer may replay its cache to the controller's handler, in no particular order: update one
        // that is not the one held.
        String updated = reconciled.get(0).equals("c-15") ? "c-14" : "c-15";
        FakeListerWatcher.OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Modified<>(configMap(updated, "2")));
        watch.emit(new WatchEvent.Added<>(configMap("fresh", "3")));
        await().atMost(Duration.ofSeconds(10)).until(() -> controller.queueDepth() == LISTED);
        release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> reconciled.size() == LISTED + 1);

        if (priorityQueue) {
            assertThat(reconciled.subList(1, 3)).containsExactly(updated, "fresh");
        } else {
            assertThat(reconciled.get(LISTED)).as("the new object after the whole list").isEqualTo("fresh");
        }
    }

    @Test
    void theInitialListAndResyncsAreLowEverythingElseNormal() {
        assertThat(Watch.priorityOfAdd(true)).isEqualTo(PriorityQueue.LOW);
        assertThat(Watch.priorityOfAdd(false)).isEqualTo(PriorityQueue.NORMAL);
        assertThat(Watch.priorityOfUpdate(configMap("a", "7"), configMap("a", "7"))).as("a resync")
                .isEqualTo(PriorityQueue.LOW);
        assertThat(Watch.priorityOfUpdate(configMap("a", "7"), configMap("a", "8"))).isEqualTo(PriorityQueue.NORMAL);
        assertThat(Watch.priorityOfUpdate(configMap("a", null), configMap("a", null)))
                .as("without versions, a change for all we know").isEqualTo(PriorityQueue.NORMAL);
    }
}

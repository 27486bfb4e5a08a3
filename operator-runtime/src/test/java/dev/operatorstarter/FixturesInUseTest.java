package dev.operatorstarter;

import static dev.operatorstarter.testing.FakeListerWatcher.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.ReflectorOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElectionRecord;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.FakeTimeSource;
import dev.operatorstarter.testing.InMemoryLeaseLock;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fixtures of the {@code operator-runtime-testing} artifact as a user's test sees them
 * (docs/testing/fixtures.md shows this code): an informer without a server, an election on fake
 * time.
 */
class FixturesInUseTest {

    private static ConfigMap configMap(String name, String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("default").withName(name)
                .withResourceVersion(resourceVersion).endMetadata().build();
    }

    @Test
    void anInformerOverAFakeListerWatcherCachesTheListThenEveryWatchEvent() throws Exception {
        FakeListerWatcher<ConfigMap> server = new FakeListerWatcher<>();
        server.answerLists(options -> page("10", "", configMap("one", "5")));
        InformerOptions options = InformerOptions.builder()
                .reflector(ReflectorOptions.builder().streamingList(false).build()).build();
        try (SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps", server,
                ConfigMap.class, options)) {
            informer.start();
            await().until(informer::hasSynced);

            server.nextWatch().emit(new WatchEvent.Added<>(configMap("two", "11")));

            // the object reaches the cache a moment before the informer records the event's version
            await().until(() -> informer.lister().namespace("default").get("two").isPresent()
                    && "11".equals(informer.lastSyncResourceVersion()));
            assertThat(informer.lastSyncResourceVersion()).isEqualTo("11");
        }
    }

    @Test
    void aCandidateTakesOverOnceTheHoldersLeaseRunsOutOnFakeTime() throws Exception {
        FakeTimeSource time = new FakeTimeSource();
        InMemoryLeaseLock lock = new InMemoryLeaseLock("me");
        lock.put(new LeaderElectionRecord("other", Duration.ofSeconds(15), time.now(), time.now(), 0));
        CountDownLatch leading = new CountDownLatch(1);
        LeaderElectionConfig config = LeaderElectionConfig.builder(lock, leadership -> leading.countDown())
                .timeSource(time).build();
        try (LeaderElector elector = new LeaderElector(config)) {
            elector.start();
            await().until(() -> elector.leader().equals("other"));
            await().until(() -> time.hasWaiterWithin(Duration.ofSeconds(3))); // it waits to try again

            time.advance(Duration.ofSeconds(15)); // the lease duration, seen from this candidate

            assertThat(leading.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(lock.record().holderIdentity()).isEqualTo("me");
        }
    }
}

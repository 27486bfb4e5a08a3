package dev.operatorstarter.cache;

import static dev.operatorstarter.cache.ConfigMaps.configMap;
import static dev.operatorstarter.testing.FakeListerWatcher.page;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.testing.FakeListerWatcher;
import dev.operatorstarter.testing.FakeListerWatcher.OpenWatch;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An informer's metrics, one series set per informer name. */
class MicrometerReflectorMetricsTest {

    @Test
    void anInformerReportsListsWatchesEventsVersionAndStoreSizeUnderItsNameAndRemovesThemWhenStopped()
            throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        FakeListerWatcher<ConfigMap> server = new FakeListerWatcher<>();
        server.answerLists(options -> page("10", "", configMap("a", "one", "5"), configMap("a", "two", "6")));
        SharedIndexInformer<ConfigMap> informer = SharedIndexInformer.create("configmaps/a", server, ConfigMap.class,
                InformerOptions.builder().metrics(ReflectorMetrics.micrometer(registry))
                        .reflector(ReflectorOptions.builder().streamingList(false).build()).build());
        informer.start();
        OpenWatch<ConfigMap> watch = server.nextWatch();
        watch.emit(new WatchEvent.Added<>(configMap("a", "three", "11")));
        watch.emit(new WatchEvent.Bookmark<>("12", Map.of()));
        // the gauge of the resourceVersion is set a moment after the informer reached that version
        await().untilAsserted(() -> {
            assertThat(informer.lastSyncResourceVersion()).isEqualTo("12");
            assertThat(informer.indexer().size()).isEqualTo(3);
            assertThat(registry.get("reflector.last.resource.version").tag("name", "configmaps/a").gauge().value())
                    .isEqualTo(12);
        });

        assertThat(registry.get("reflector.lists").tag("name", "configmaps/a").counter().count()).isEqualTo(1);
        assertThat(registry.get("reflector.list.duration").tag("name", "configmaps/a").timer().count()).isEqualTo(1);
        assertThat(registry.get("reflector.watches").tag("name", "configmaps/a").counter().count()).isEqualTo(1);
        assertThat(registry.get("watch.events").tags("name", "configmaps/a", "type", "ADDED").counter().count())
                .isEqualTo(1);
        assertThat(registry.get("watch.events").tags("type", "BOOKMARK").counter().count()).isEqualTo(1);
        assertThat(registry.get("informer.store.size").tag("name", "configmaps/a").gauge().value()).isEqualTo(3);

        watch.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.find("reflector.watch.duration").timer() != null);
        informer.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.getMeters().isEmpty());
    }
}

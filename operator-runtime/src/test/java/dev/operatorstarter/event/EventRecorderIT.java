package dev.operatorstarter.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.events.v1.Event;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Events written to the real API server. */
@KubernetesTest
class EventRecorderIT {

    private static ConfigMap create(KubernetesClient client, String namespace, String name) {
        return client.coreV1().configMaps().inNamespace(namespace).create(new ConfigMapBuilder().withNewMetadata()
                .withName(name).endMetadata().build());
    }

    @Test
    void aHundredIdenticalEventsAreOneEventsV1EventWithSeriesCountAHundred(ClusterConnection connection,
            TestNamespace namespace) {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            ConfigMap object = create(client, namespace.name(), "watched");
            try (EventBroadcaster broadcaster = new EventBroadcaster(client, EventOptions.defaults())) {
                broadcaster.start();
                EventRecorder recorder = broadcaster.recorder("operatorstarter.dev/test");
                for (int i = 0; i < 100; i++) {
                    recorder.event(object, EventType.WARNING, "SyncFailed", "Sync", "could not sync: attempt " + i);
                }
                recorder.event(object, EventType.NORMAL, "Synced", "Sync", "synced");
            }
            List<Event> events = client.resources(Event.class).inNamespace(namespace.name()).list().items();
            assertThat(events).hasSize(2);
            Event failed = events.stream().filter(e -> e.getReason().equals("SyncFailed")).findFirst().orElseThrow();
            assertThat(failed.getSeries().getCount()).isEqualTo(100);
            assertThat(failed.getRegarding().getUid()).isEqualTo(object.getMetadata().getUid());
            assertThat(failed.getType()).isEqualTo("Warning");
            assertThat(failed.getReportingController()).isEqualTo("operatorstarter.dev/test");
            assertThat(failed.getNote()).isEqualTo("could not sync: attempt 0");
            Event synced = events.stream().filter(e -> e.getReason().equals("Synced")).findFirst().orElseThrow();
            assertThat(synced.getSeries()).isNull();
        }
    }

    @Test
    void whereEventsV1IsNotServedCoreEventsAreWrittenWithTheirCount() {
        try (LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.builder()
                .apiServerArg("--runtime-config=events.k8s.io/v1=false").build());
                KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(
                        server.connection().kubeconfig(), null))) {
            ConfigMap object = create(client, "default", "old-style");
            try (EventBroadcaster broadcaster = new EventBroadcaster(client, EventOptions.defaults())) {
                broadcaster.start();
                EventRecorder recorder = broadcaster.recorder("operatorstarter.dev/test");
                for (int i = 0; i < 5; i++) {
                    recorder.event(object, EventType.NORMAL, "Poked", "Poke", "poked");
                }
            }
            List<io.fabric8.kubernetes.api.model.Event> events = client.resources(
                    io.fabric8.kubernetes.api.model.Event.class).inNamespace("default").list().items().stream()
                    .filter(e -> "Poked".equals(e.getReason())).toList();
            assertThat(events).singleElement().satisfies(event -> {
                assertThat(event.getCount()).isEqualTo(5);
                assertThat(event.getInvolvedObject().getName()).isEqualTo("old-style");
                assertThat(event.getSource().getComponent()).isEqualTo("operatorstarter.dev/test");
            });
        }
    }
}

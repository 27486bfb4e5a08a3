package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.testing.FakeListerWatcher;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Read-your-own-writes bookkeeping of a ConfigMap controller, through its public surface. */
class WriteTrackerTest {

    private final Controller<ConfigMap> controller = Controller.builder(ControllerOptions.builder("tracker").build(),
            ResourceType.of(ConfigMap.class), SharedIndexInformer.create("configmaps",
                    FakeListerWatcher.<ConfigMap>listing(List.of()), ConfigMap.class, InformerOptions.defaults()))
            .build(request -> ReconcileResult.done());

    private final ReconcileRequest foo = new ReconcileRequest("ns", "foo");

    private boolean primaryLooksStale(String cachedVersion) {
        return controller.writes().isStale(foo, Optional.of(ControllerTest.configMap("foo", cachedVersion)));
    }

    static Secret secret(String name, String version) {
        return new SecretBuilder().withNewMetadata().withNamespace("ns").withName(name).withResourceVersion(version)
                .endMetadata().build();
    }

    /** A client that answers every write with the object it was given, as the server would store it. */
    @SuppressWarnings("unchecked")
    static <T extends HasMetadata> ResourceClient<T> echoing(ResourceType<T> type) {
        return (ResourceClient<T>) Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] {ResourceClient.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "type" -> type;
                    case "inNamespace" -> proxy;
                    case "create", "update", "updateStatus", "apply", "applyStatus" -> args[0];
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void aWriteToThePrimaryMakesAnOlderCachedCopyStaleUntilTheCacheCatchesUp() {
        controller.writes().written(ControllerTest.configMap("foo", "10"));
        assertThat(primaryLooksStale("9")).isTrue();
        assertThat(primaryLooksStale("10")).isFalse();
        assertThat(primaryLooksStale("9")).as("forgotten once the cache caught up").isFalse();
    }

    @Test
    void aWriteToAnObjectOfAnotherKindWithTheSameNameLeavesThePrimaryAlone() {
        controller.writes().written(secret("foo", "10"));
        assertThat(primaryLooksStale("9")).isFalse();
    }

    @Test
    void aWriteToAnObjectOfTheSameKindInAnotherGroupLeavesThePrimaryAlone() {
        GenericKubernetesResource lookalike = new GenericKubernetesResourceBuilder().withApiVersion("example.com/v1")
                .withKind("ConfigMap").withNewMetadata().withNamespace("ns").withName("foo").withResourceVersion("10")
                .endMetadata().build();
        controller.writes().written(lookalike);
        assertThat(primaryLooksStale("9")).isFalse();
    }

    @Test
    void aTrackedClientRecordsWritesToThePrimaryOnly() {
        controller.tracked(echoing(ResourceType.of(Secret.class))).inNamespace("ns").create(secret("foo", "10"));
        assertThat(primaryLooksStale("9")).as("after a Secret write").isFalse();

        controller.tracked(echoing(ResourceType.of(ConfigMap.class))).inNamespace("ns")
                .update(ControllerTest.configMap("foo", "10"));
        assertThat(primaryLooksStale("9")).as("after a ConfigMap write").isTrue();
    }
}

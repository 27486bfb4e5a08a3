package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.micrometer.observation.Observation;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

/**
 * Each HTTP attempt of the client is one {@code http.client.requests} observation (Spring
 * WebClient's) with Kubernetes-aware keys, against the real API server.
 */
@KubernetesTest
class RequestObservationIT {

    private static final String NAME = "http.client.requests";

    @Test
    void eachRequestIsObservedOnceWithItsVerbResourceRouteAndStatus(ClusterConnection connection, TestNamespace namespace) {
        TestObservationRegistry observations = TestObservationRegistry.create();
        try (KubernetesClient client = Clients.admin(connection,
                ClientOptions.builder().observationRegistry(observations).build())) {
            ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
            configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("settings").endMetadata()
                    .addToData("colour", "blue").build());
            configMaps.get("settings");
            configMaps.list();
            assertThatThrownBy(() -> client.appsV1().deployments().inNamespace(namespace.name()).get("absent"))
                    .isInstanceOf(ApiException.NotFound.class);

            await().untilAsserted(() -> TestObservationRegistryAssert.assertThat(observations)
                    .hasNumberOfObservationsWithNameEqualTo(NAME, 4)
                    .hasAnObservation(request -> request.hasNameEqualTo(NAME)
                            .hasLowCardinalityKeyValue("verb", "create")
                            .hasLowCardinalityKeyValue("resource", "configmaps")
                            .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps")
                            .hasLowCardinalityKeyValue("method", "POST")
                            .hasLowCardinalityKeyValue("status", "201")
                            .hasContextualNameEqualTo("create configmaps"))
                    .hasAnObservation(request -> request.hasNameEqualTo(NAME)
                            .hasLowCardinalityKeyValue("verb", "get")
                            .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps/{name}")
                            .hasLowCardinalityKeyValue("status", "200")
                            .hasHighCardinalityKeyValueWithKey("http.url"))
                    .hasAnObservation(request -> request.hasNameEqualTo(NAME)
                            .hasLowCardinalityKeyValue("verb", "list")
                            .hasLowCardinalityKeyValue("uri", "/api/v1/namespaces/{namespace}/configmaps"))
                    .hasAnObservation(request -> request.hasNameEqualTo(NAME)
                            .hasLowCardinalityKeyValue("verb", "get")
                            .hasLowCardinalityKeyValue("resource", "deployments.apps")
                            .hasLowCardinalityKeyValue("uri", "/apis/apps/v1/namespaces/{namespace}/deployments/{name}")
                            .hasLowCardinalityKeyValue("status", "404")
                            .hasLowCardinalityKeyValue("outcome", "CLIENT_ERROR")));
        }
    }

    @Test
    void aRequestMadeUnderAnObservationIsItsChild(ClusterConnection connection, TestNamespace namespace) {
        TestObservationRegistry observations = TestObservationRegistry.create();
        try (KubernetesClient client = Clients.admin(connection,
                ClientOptions.builder().observationRegistry(observations).build())) {
            Observation.createNotStarted("operator.reconcile", observations).observe(() ->
                    client.appsV1().deployments().inNamespace(namespace.name()).list());

            await().untilAsserted(() -> TestObservationRegistryAssert.assertThat(observations)
                    .hasObservationWithNameEqualTo(NAME).that()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("verb", "list")
                    .hasParentObservationContextMatching(parent -> parent.getName().equals("operator.reconcile")));
        }
    }
}

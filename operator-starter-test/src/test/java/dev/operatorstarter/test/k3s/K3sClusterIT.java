package dev.operatorstarter.test.k3s;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.internal.KubernetesApi;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The K3s backend against a real K3s container. Needs a Docker engine: where there is none, the
 * class is reported as skipped (Testcontainers' {@code disabledWithoutDocker}), never as passed.
 */
@Testcontainers(disabledWithoutDocker = true)
class K3sClusterIT {

    @Test
    void k3sServesTheApiThroughTheHarnessConnection() {
        try (K3sCluster cluster = K3sCluster.start(K3sCluster.image())) {
            KubernetesApi api = KubernetesApi.of(cluster.connection().server(), cluster.connection().sslContext(),
                    cluster.connection().bearerToken());

            assertThat(cluster.backend()).isEqualTo(ClusterBackend.K3S);
            assertThat(cluster.serverVersion()).contains("k3s");
            assertThat(api.get("/api/v1/namespaces/default").status()).isEqualTo(200);
            assertThat(cluster.connection().kubeconfig()).exists();
        }
    }
}

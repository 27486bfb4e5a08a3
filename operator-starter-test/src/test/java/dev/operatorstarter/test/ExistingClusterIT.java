package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The existing-cluster backend, pointed at the run's shared API server through its kubeconfig file,
 * exactly as a user points it at their own cluster with {@code OPERATOR_TEST_KUBECONFIG}.
 */
@KubernetesTest
class ExistingClusterIT {

    @Test
    void anExistingClusterIsReachedThroughTheKubeconfigNamedInTheEnvironment(ClusterConnection shared) {
        try (ExistingCluster existing = ExistingCluster.connect(
                Map.of(ExistingCluster.KUBECONFIG_ENV, shared.kubeconfig().toString()))) {
            ClusterAccess access = new ClusterAccess(existing.connection());
            TestNamespace namespace = access.createNamespace("ExistingClusterIT");

            assertThat(existing.backend()).isEqualTo(ClusterBackend.EXISTING);
            assertThat(existing.connection().server()).isEqualTo(shared.server());
            assertThat(existing.serverVersion()).startsWith("v1.");
            assertThat(existing.connection().kubeconfig()).exists().isNotEqualTo(shared.kubeconfig());
            assertThat(ClusterAccess.api(shared).get("/api/v1/namespaces/" + namespace.name()).status()).isEqualTo(200);
            access.deleteNamespace(namespace);
        }
    }

    @Test
    void anUnknownContextFailsWithTheFileAndContextNamed(ClusterConnection shared) {
        assertThatThrownBy(() -> ExistingCluster.connect(Map.of(ExistingCluster.KUBECONFIG_ENV,
                shared.kubeconfig().toString(), ExistingCluster.CONTEXT_ENV, "production")))
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining(shared.kubeconfig().toString())
                .hasMessageContaining("no context named 'production'");
    }

    @Test
    void aMissingKubeconfigFailsWithItsPath(@TempDir Path temp) {
        Path missing = temp.resolve("nope.yaml");

        assertThatThrownBy(() -> ExistingCluster.connect(Map.of(ExistingCluster.KUBECONFIG_ENV, missing.toString())))
                .isInstanceOf(ClusterStartException.class)
                .hasMessageContaining("cannot read kubeconfig " + missing);
    }
}

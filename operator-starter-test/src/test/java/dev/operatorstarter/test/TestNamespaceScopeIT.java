package dev.operatorstarter.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.test.internal.KubernetesApi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A {@link TestNamespace} belongs to the scope that asked for it. */
@KubernetesTest
class TestNamespaceScopeIT {

    private static TestNamespace classNamespace;

    @BeforeAll
    static void rememberTheClassNamespace(TestNamespace namespace) {
        classNamespace = namespace;
    }

    @Test
    void aTestMethodGetsANamespaceOfItsOwnNotTheClassOne(TestNamespace namespace, ClusterConnection connection) {
        KubernetesApi api = KubernetesApi.of(connection.server(), connection.sslContext(), connection.bearerToken());

        assertThat(namespace.name()).isNotEqualTo(classNamespace.name());
        assertThat(api.get("/api/v1/namespaces/" + namespace.name()).status()).isEqualTo(200);
        assertThat(api.get("/api/v1/namespaces/" + classNamespace.name()).status()).isEqualTo(200);
    }

    @Test
    void parametersOfOneMethodShareItsNamespace(TestNamespace first, TestNamespace second) {
        assertThat(first).isEqualTo(second);
        assertThat(first).isNotEqualTo(classNamespace);
    }
}

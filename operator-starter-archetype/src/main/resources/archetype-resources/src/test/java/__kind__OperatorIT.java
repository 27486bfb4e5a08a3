package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The operator against a real API server: {@code @KubernetesTest} starts one for the JVM (local
 * etcd and kube-apiserver processes), installs the CRD and gives each test a namespace of its own.
 */
@SpringBootTest
@KubernetesTest(crds = "crds/${kind.toLowerCase()}s.${apiGroup}.yaml")
class ${kind}OperatorIT {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Autowired
    KubernetesClient client;

    @Test
    void a${kind}GetsAConfigMapWithItsMessageAndAStatus(TestNamespace namespace) {
        client.resources(${kind}.class).inNamespace(namespace.name()).create(${kind}.of("hello", "Hello, world"));

        ConfigMap configMap = Eventually.await("the ConfigMap of ${kind} hello", WAIT,
                () -> client.coreV1().configMaps().inNamespace(namespace.name()).find("hello-${kind.toLowerCase()}"),
                Optional::isPresent).orElseThrow();
        assertThat(configMap.getData()).containsEntry("message", "Hello, world");
        assertThat(configMap.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(owner -> assertThat(owner.getName()).isEqualTo("hello"));

        ${kind} reconciled = Eventually.await("the status of ${kind} hello", WAIT,
                () -> client.resources(${kind}.class).inNamespace(namespace.name()).find("hello").orElseThrow(),
                resource -> resource.getStatus() != null);
        assertThat(reconciled.getStatus()).isEqualTo(new ${kind}Status(1L, "hello-${kind.toLowerCase()}"));
    }
}

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
import org.springframework.test.annotation.DirtiesContext;

/**
 * The operator against a real API server: {@code @KubernetesTest} starts one for the JVM (local
 * etcd and kube-apiserver processes), installs the CRD and gives each test a namespace of its own.
 * The operator stops with the class ({@code @DirtiesContext}): it watches every namespace, and would
 * otherwise go on reconciling the ${kind}s of the test classes that run after it in this JVM.
 */
#if ($webhook == 'true')
// the webhook server (application.yaml) on any free port: the test calls no webhook
@SpringBootTest(properties = "operator.webhook.port=0")
#else
@SpringBootTest
#end
@KubernetesTest(crds = "crds/${kind.toLowerCase()}s.${apiGroup}.yaml")
@DirtiesContext
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

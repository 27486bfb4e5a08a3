package dev.operatorstarter.autoconfigure.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.testcontainers.ConfigMapOperatorApplication.Seen;
import dev.operatorstarter.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The documented K3s usage on a real container. Needs a Docker engine; skipped cleanly without
 * one (the machines this project is built on have none: K3sServiceConnectionIT covers the wiring).
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = ConfigMapOperatorApplication.class, properties = "operator.leader-election.enabled=false")
class K3sContainerIT {

    @Container
    @ServiceConnection
    static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));

    @Autowired
    KubernetesClient client;

    @Autowired
    Seen seen;

    @Test
    void theOperatorReconcilesInTheK3sContainer() {
        client.coreV1().configMaps().inNamespace("default")
                .create(new ConfigMapBuilder().withNewMetadata().withName("in-k3s").endMetadata().build());
        await().atMost(Duration.ofSeconds(60)).until(() -> seen.keys.contains("default/in-k3s"));
        assertThat(client.config().server().getHost()).isEqualTo(k3s.getHost());
    }
}

package dev.operatorstarter.autoconfigure.testcontainers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.testcontainers.ConfigMapOperatorApplication.Seen;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The {@code @ServiceConnection} path for K3s, without Docker: a {@link K3sContainer} whose
 * lifecycle does nothing and whose kubeconfig is the local API server's. Boot's service-connection
 * machinery, our factory and the application are all real; only the container is not.
 */
@KubernetesTest
class K3sServiceConnectionIT {

    /** A K3s container that is the harness's API server: no Docker needed. */
    static final class LocalApiServerAsK3s extends K3sContainer {
        private final String kubeconfig;

        LocalApiServerAsK3s(String kubeconfig) {
            super(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));
            this.kubeconfig = kubeconfig;
        }

        @Override
        public void start() {
        }

        @Override
        public void stop() {
        }

        @Override
        public boolean isRunning() {
            return true;
        }

        @Override
        public String getHost() {
            return "localhost"; // K3sContainer's constructor asks, for --tls-san; the real one asks Docker
        }

        @Override
        public String getDockerImageName() {
            return "rancher/k3s:v1.33.4-k3s1"; // Boot derives the connection name from it; Docker is never asked
        }

        @Override
        public String getKubeConfigYaml() {
            return kubeconfig;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class K3sConnection {
        @Bean
        @ServiceConnection
        K3sContainer k3s(Environment environment) throws IOException {
            return new LocalApiServerAsK3s(Files.readString(Path.of(environment.getRequiredProperty("test.kubeconfig"))));
        }
    }

    @Test
    void aServiceConnectionK3sContainerReplacesThePropertiesAndTheOperatorWorksThroughIt(ClusterConnection connection,
            TestNamespace namespace) {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(ConfigMapOperatorApplication.class,
                K3sConnection.class).web(WebApplicationType.NONE)
                .properties("test.kubeconfig=" + connection.kubeconfig(),
                        "operator.client.kubeconfig=/nowhere/not-used-when-a-service-connection-exists",
                        "operator.leader-election.enabled=false", "operator.informers.namespaces=" + namespace.name())
                .run()) {
            assertThat(context.getBeansOfType(KubernetesConnectionDetails.class)).hasSize(1).values().singleElement()
                    .satisfies(details -> assertThat(details.getClass().getName()).contains("K3s"));
            assertThat(context.getBean(ClientConfig.class).server()).isEqualTo(connection.server());

            context.getBean(KubernetesClient.class).coreV1().configMaps().inNamespace(namespace.name())
                    .create(new ConfigMapBuilder().withNewMetadata().withName("through-k3s").endMetadata().build());
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> context.getBean(Seen.class).keys.contains(namespace.name() + "/through-k3s"));
        }
    }
}

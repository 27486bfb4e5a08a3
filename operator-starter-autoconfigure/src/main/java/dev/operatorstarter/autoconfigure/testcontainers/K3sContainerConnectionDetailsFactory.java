package dev.operatorstarter.autoconfigure.testcontainers;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.KubeconfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.k3s.K3sContainer;

/**
 * Makes {@link KubernetesConnectionDetails} for a {@code @ServiceConnection} {@link K3sContainer}:
 * the application then talks to the container's API server with its admin credentials.
 *
 * <pre>{@code
 * @Container @ServiceConnection
 * static K3sContainer k3s = new K3sContainer(DockerImageName.parse("rancher/k3s:v1.33.4-k3s1"));
 * }</pre>
 */
final class K3sContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<K3sContainer, KubernetesConnectionDetails> {

    K3sContainerConnectionDetailsFactory() {
        super(ANY_CONNECTION_NAME, "org.testcontainers.k3s.K3sContainer");
    }

    @Override
    protected KubernetesConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
        return new K3sConnectionDetails(source);
    }

    /** Reads the container's kubeconfig once, when first asked (which starts the container). */
    static final class K3sConnectionDetails extends ContainerConnectionDetails<K3sContainer>
            implements KubernetesConnectionDetails {

        private @Nullable ClientConfig config;

        K3sConnectionDetails(ContainerConnectionSource<K3sContainer> source) {
            super(source);
        }

        @Override
        public synchronized ClientConfig clientConfig() {
            if (config == null) {
                config = read(getContainer().getKubeConfigYaml());
            }
            return config;
        }

        /** The kubeconfig's current context; certificates are read at once, so the file can go. */
        static ClientConfig read(String kubeconfigYaml) {
            Path file = null;
            try {
                file = Files.createTempFile("k3s-kubeconfig", ".yaml",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                Files.writeString(file, kubeconfigYaml, StandardCharsets.UTF_8);
                return KubeconfigLoader.load(file, null);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the K3s container's kubeconfig to a temporary file", e);
            } finally {
                if (file != null) {
                    try {
                        Files.deleteIfExists(file);
                    } catch (IOException ignored) {
                        // a temporary file; the OS cleans it up
                    }
                }
            }
        }
    }
}

package dev.operatorstarter.test.k3s;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.internal.OwnerOnly;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.k3s.K3sContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * K3s in a container through Testcontainers: a complete single-node cluster (scheduler, kubelet,
 * all controllers), for machines with a Docker engine.
 *
 * <p>The image defaults to {@value #DEFAULT_IMAGE}; set the system property {@value #IMAGE_PROPERTY}
 * or the environment variable {@value #IMAGE_ENV} to use another.
 */
public final class K3sCluster implements KubernetesCluster {

    public static final String DEFAULT_IMAGE = "rancher/k3s:v1.37.0-k3s1";
    public static final String IMAGE_PROPERTY = "operator.test.k3s-image";
    public static final String IMAGE_ENV = "OPERATOR_TEST_K3S_IMAGE";

    private final K3sContainer container;
    private final ClusterConnection connection;
    private final String serverVersion;
    private final Path directory;

    private K3sCluster(K3sContainer container, ClusterConnection connection, String serverVersion, Path directory) {
        this.container = container;
        this.connection = connection;
        this.serverVersion = serverVersion;
        this.directory = directory;
    }

    /** Whether a Docker engine answers (Testcontainers' own check). */
    public static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** The configured image name. */
    public static String image() {
        String image = Settings.get(IMAGE_PROPERTY, IMAGE_ENV, System.getenv());
        return image == null ? DEFAULT_IMAGE : image;
    }

    /** Starts a K3s container from {@code image} and waits until its API server answers. */
    public static K3sCluster start(String image) {
        K3sContainer container = new K3sContainer(DockerImageName.parse(image).asCompatibleSubstituteFor("rancher/k3s"));
        Path directory = null;
        try {
            container.start();
            directory = Files.createTempDirectory("operator-starter-k3s-");
            OwnerOnly.restrict(directory);
            Path source = directory.resolve("k3s.kubeconfig");
            OwnerOnly.write(source, container.getKubeConfigYaml());
            ClusterConnection connection = Kubeconfig.read(source, null)
                    .writeTo(directory.resolve("kubeconfig"), "operator-starter-k3s");
            Files.delete(source);
            String version = KubernetesApi.of(connection.server(), connection.sslContext(), connection.bearerToken())
                    .get("/version").orThrow("GET /version").path("gitVersion").asString();
            return new K3sCluster(container, connection, version, directory);
        } catch (IOException | RuntimeException e) {
            container.stop();
            Folders.deleteQuietly(directory);
            throw new ClusterStartException("K3s (" + image + ") did not start: " + e.getMessage(), e);
        }
    }

    @Override
    public ClusterBackend backend() {
        return ClusterBackend.K3S;
    }

    @Override
    public ClusterConnection connection() {
        return connection;
    }

    @Override
    public String serverVersion() {
        return serverVersion;
    }

    @Override
    public void close() {
        container.stop();
        Folders.deleteQuietly(directory);
    }
}

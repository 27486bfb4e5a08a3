package dev.operatorstarter.test;

import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Starts a test cluster on the backend {@link ClusterBackend#select} picks, or on a named one. */
public final class KubernetesClusters {

    private static final Logger log = LoggerFactory.getLogger(KubernetesClusters.class);
    private static final String K3S_CONTAINER_CLASS = "org.testcontainers.k3s.K3sContainer";

    private KubernetesClusters() {
    }

    /** Starts a cluster on the selected backend (explicit choice, else K3s if Docker answers, else local). */
    public static KubernetesCluster start() {
        Map<String, String> environment = System.getenv();
        String explicit = ClusterBackend.explicitChoice(environment);
        ClusterBackend backend = ClusterBackend.select(explicit,
                explicit == null && testcontainersPresent() && K3sSupport.dockerAvailable());
        log.info("Starting a test cluster on the {} backend{}", backend,
                explicit == null ? " (selected automatically)" : " (chosen by " + ClusterBackend.PROPERTY + " / " + ClusterBackend.ENV + ")");
        return start(backend);
    }

    /** Starts a cluster on {@code backend}. */
    public static KubernetesCluster start(ClusterBackend backend) {
        return switch (backend) {
            case LOCAL -> LocalApiServer.start(LocalApiServerOptions.defaults());
            case K3S -> {
                if (!testcontainersPresent()) {
                    throw new ClusterStartException("the k3s backend needs org.testcontainers:testcontainers-k3s "
                            + "on the test classpath");
                }
                yield K3sSupport.start();
            }
            case EXISTING -> ExistingCluster.connect(System.getenv());
        };
    }

    static boolean testcontainersPresent() {
        try {
            Class.forName(K3S_CONTAINER_CLASS, false, KubernetesClusters.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Keeps Testcontainers classes out of this class's constant pool until they are known to exist. */
    private static final class K3sSupport {

        static boolean dockerAvailable() {
            return dev.operatorstarter.test.k3s.K3sCluster.dockerAvailable();
        }

        static KubernetesCluster start() {
            return dev.operatorstarter.test.k3s.K3sCluster.start(dev.operatorstarter.test.k3s.K3sCluster.image());
        }
    }
}

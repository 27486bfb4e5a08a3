package dev.operatorstarter.test;

import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a test cluster on the backend {@link ClusterBackend#select} picks, or on a named one; and
 * hands out the JVM's shared cluster, the one {@link KubernetesTest} classes and Spring tests use.
 */
public final class KubernetesClusters {

    private static final Logger log = LoggerFactory.getLogger(KubernetesClusters.class);
    private static final String K3S_CONTAINER_CLASS = "org.testcontainers.k3s.K3sContainer";

    private KubernetesClusters() {
    }

    /**
     * The JVM's shared test cluster, the one {@link KubernetesTest} gives its test classes: started
     * by the first call (from here, the JUnit extension or the Spring integration) on the backend
     * {@link #start()} selects, and stopped by a JVM shutdown hook (once the {@linkplain #holdShared()
     * holds} are closed). Do not close it.
     *
     * <p>Blocks while another thread starts it. A cluster that could not start is not started again:
     * every later call fails with the same cause.
     *
     * @return the running cluster, the same instance for every caller
     * @throws ClusterStartException if the cluster could not be started, now or by an earlier call
     */
    public static KubernetesCluster shared() {
        return SharedCluster.jvm().cluster();
    }

    /**
     * The JVM's shared cluster as {@link #shared()} gives it, for an operator run on a developer's
     * machine: when this call starts it and the local backend has to build kube-controller-manager
     * first, the API server serves without waiting for that build, and the controller manager joins
     * once built ({@link LocalApiServerOptions#awaitControllerManager()}). A cluster already started
     * by another caller is returned as it is.
     */
    public static KubernetesCluster sharedForDevelopment() {
        return SharedCluster.jvm().cluster(SharedCluster::startForDevelopmentUntilTheJvmExits);
    }

    /**
     * Defers the stop of the JVM's shared cluster at JVM exit until the returned hold is closed, for
     * an application that closes on a shutdown hook of its own and uses the cluster until it has
     * stopped: a Spring context (as {@code LocalKubernetes} does) releasing its leader election's
     * Lease and removing its webhook configurations. The JVM runs shutdown hooks at the same time,
     * so without a hold the cluster may stop under it. The cluster's hook waits at most 30 s for
     * the holds. Closing the last hold while the JVM exits stops the cluster on the closing thread;
     * closing one while the JVM goes on does not stop it. Starts nothing.
     */
    public static ClusterHold holdShared() {
        return SharedCluster.jvm().hold();
    }

    /**
     * Creates, or updates, the CustomResourceDefinitions of the classpath {@code resource} (YAML or
     * JSON, several documents allowed) on the {@link #shared()} cluster, starting it if needed, and
     * returns once each is Established; what {@link KubernetesTest#crds()} does for a test class.
     *
     * <p>Once per resource name and JVM: a resource installed before, by any caller, returns at
     * once, so an edited manifest is not re-read in the same JVM. A failed installation is not
     * remembered; the next call tries again.
     *
     * @param resource the manifest's classpath location, for example {@code crds/widgets.yaml}
     * @param loader the class loader that finds {@code resource}, usually the test class's
     * @throws ClusterStartException if the cluster could not be started, or the manifest is missing,
     *         unreadable or holds anything but CRDs
     * @throws RuntimeException another kind when the server refuses a CRD or does not establish it
     *         within a minute; the message names the CRD
     */
    public static void installCrds(String resource, ClassLoader loader) {
        SharedCluster.jvm().installCrdsOnce(resource, loader);
    }

    /** Starts a cluster on the selected backend (explicit choice, else K3s if Docker answers, else local). */
    public static KubernetesCluster start() {
        return start(LocalApiServerOptions.defaults());
    }

    /** The backend {@link #start()} would choose now: the explicit choice, else K3s if Docker answers, else local. */
    public static ClusterBackend selectedBackend() {
        String explicit = ClusterBackend.explicitChoice(System.getenv());
        return ClusterBackend.select(explicit, explicit == null && testcontainersPresent() && K3sSupport.dockerAvailable());
    }

    /** As {@link #start()}, with {@code localOptions} for the local backend. */
    static KubernetesCluster start(LocalApiServerOptions localOptions) {
        Map<String, String> environment = System.getenv();
        String explicit = ClusterBackend.explicitChoice(environment);
        ClusterBackend backend = ClusterBackend.select(explicit,
                explicit == null && testcontainersPresent() && K3sSupport.dockerAvailable());
        log.info("Starting a test cluster on the {} backend{}", backend,
                explicit == null ? " (selected automatically)" : " (chosen by " + ClusterBackend.PROPERTY + " / " + ClusterBackend.ENV + ")");
        return start(backend, localOptions);
    }

    /** Starts a cluster on {@code backend}. */
    public static KubernetesCluster start(ClusterBackend backend) {
        return start(backend, LocalApiServerOptions.defaults());
    }

    private static KubernetesCluster start(ClusterBackend backend, LocalApiServerOptions localOptions) {
        return switch (backend) {
            case LOCAL -> LocalApiServer.start(localOptions);
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

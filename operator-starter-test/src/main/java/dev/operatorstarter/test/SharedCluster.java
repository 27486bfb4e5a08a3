package dev.operatorstarter.test;

import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * A test cluster started on first use and shared from then on, or the failure that kept it from
 * starting: a cluster that cannot start fails every caller with the same cause and is not started
 * (or built) again. CRDs are installed on it once per classpath resource. Thread-safe: the first
 * caller starts the cluster while the others wait for it.
 *
 * <h2>Why the JVM's holder is a static</h2>
 *
 * One API server per JVM is the harness's contract ({@link KubernetesTest}): starting one takes
 * seconds (minutes when its binaries are built first), so every test class of a run shares it. Two
 * paths need that one cluster: the JUnit extension, and the Spring TestContext integration
 * ({@code dev.operatorstarter.test.spring}), which builds an application context outside JUnit's
 * extension store: Spring loads and caches contexts on its own terms, possibly before the
 * extension's {@code beforeAll} (a {@code PER_CLASS} test instance is built, and its context
 * loaded, before {@code beforeAll} callbacks run) and for as long as its context cache lives. JUnit's
 * root store is out of the Spring path's reach, so the cluster is held by {@link #jvm()}, a
 * constant, and stopped by a JVM shutdown hook rather than at the end of a JUnit run. It is the
 * harness's only mutable static state; other holders (the harness's own tests make some) are
 * ordinary instances that nothing else sees.
 */
final class SharedCluster {

    private static final SharedCluster JVM = new SharedCluster(SharedCluster::startUntilTheJvmExits);

    private final Supplier<KubernetesCluster> starter;

    // All guarded by this.
    private boolean attempted;
    private @Nullable KubernetesCluster cluster;
    private @Nullable ClusterAccess access;
    private @Nullable RuntimeException failure;
    private final Set<String> installedCrds = new HashSet<>();

    /** A holder that calls {@code starter} on first use; nothing is started here. */
    SharedCluster(Supplier<KubernetesCluster> starter) {
        this.starter = Objects.requireNonNull(starter, "starter");
    }

    /** The JVM's holder: {@link KubernetesClusters#start()} on first use, stopped at JVM shutdown. */
    static SharedCluster jvm() {
        return JVM;
    }

    /**
     * The cluster, started by this call if no caller started it before.
     *
     * @throws ClusterStartException if the cluster could not be started, now or by an earlier
     *         call; its cause is the original failure, the same instance for every caller
     */
    synchronized KubernetesCluster cluster() {
        return cluster(starter);
    }

    /**
     * As {@link #cluster()}, but a cluster this call starts is started by {@code firstStarter}
     * instead of this holder's starter.
     */
    synchronized KubernetesCluster cluster(Supplier<KubernetesCluster> firstStarter) {
        if (!attempted) {
            attempted = true;
            try {
                KubernetesCluster started = firstStarter.get();
                access = new ClusterAccess(started.connection(), started.hasControllerManager());
                cluster = started;
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (cluster == null) {
            throw new ClusterStartException("the test cluster for this run could not be started: "
                    + (failure == null ? "unknown reason" : failure.getMessage()), failure);
        }
        return cluster;
    }

    /** Namespaces and CRDs on {@link #cluster()}, which this call starts if needed. */
    synchronized ClusterAccess access() {
        cluster();
        return Objects.requireNonNull(access);
    }

    /**
     * Installs the CRDs of the classpath {@code resource} (see {@link ClusterAccess#installCrds}),
     * unless this holder installed that resource before; returns once they are Established. A
     * failed installation is not remembered: the next caller tries again and sees its own error.
     */
    synchronized void installCrdsOnce(String resource, ClassLoader loader) {
        if (!installedCrds.contains(resource)) {
            access().installCrds(resource, loader);
            installedCrds.add(resource);
        }
    }

    private static KubernetesCluster startUntilTheJvmExits() {
        return stopAtJvmExit(KubernetesClusters.start());
    }

    /** {@link KubernetesClusters#sharedForDevelopment()}'s: the local backend does not wait for a controller manager's build. */
    static KubernetesCluster startForDevelopmentUntilTheJvmExits() {
        return stopAtJvmExit(KubernetesClusters.start(LocalApiServerOptions.builder().awaitControllerManager(false)
                .build()));
    }

    private static KubernetesCluster stopAtJvmExit(KubernetesCluster started) {
        // Concurrently with other hooks, among them Spring's, which close the cached application
        // contexts; an application still watching the server at that moment may log a refused connection.
        Runtime.getRuntime().addShutdownHook(new Thread(started::close, "operator-starter-test-cluster-stop"));
        return started;
    }
}

package dev.operatorstarter.test;

import dev.operatorstarter.test.local.LocalApiServerOptions;
import java.time.Duration;
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
 *
 * <h2>The stop at JVM exit</h2>
 *
 * The JVM runs its shutdown hooks at the same time, Spring's among them. An application that
 * closes on Spring's hook and needs the server until it has stopped (a local run's operator
 * releasing its Lease) takes a {@link #hold()}; the cluster's hook waits for the holds, at most
 * {@link #HOLD_LIMIT}, and the last one closed during the exit stops the cluster right away ({@link ExitStop}).
 */
final class SharedCluster {

    private static final SharedCluster JVM = new SharedCluster(SharedCluster::startUntilTheJvmExits);

    /** How long the JVM's cluster waits at JVM exit for its holds ({@link #hold()}) before it stops anyway. */
    static final Duration HOLD_LIMIT = Duration.ofSeconds(30);

    private final Supplier<KubernetesCluster> starter;
    private final ExitStop exitStop = new ExitStop(this::closeStarted, ExitStop::jvmExiting);

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

    /**
     * A hold on this holder's cluster at JVM exit ({@link KubernetesClusters#holdShared()}): the
     * stop at exit waits for it. Starts nothing.
     */
    ClusterHold hold() {
        return exitStop.hold();
    }

    /**
     * What the JVM's shutdown hook does: waits up to {@code limit} for the open holds, and stops the
     * cluster, or waits while the last hold's closer stops it.
     */
    void stopAtExit(Duration limit) {
        exitStop.onExit(limit);
    }

    private void closeStarted() {
        KubernetesCluster started;
        synchronized (this) {
            started = cluster;
        }
        if (started != null) {
            started.close();
        }
    }

    private static KubernetesCluster startUntilTheJvmExits() {
        return stopAtJvmExit(KubernetesClusters.start(LocalApiServerOptions.builder().stopAtJvmExit(false).build()));
    }

    /** {@link KubernetesClusters#sharedForDevelopment()}'s: the local backend does not wait for a controller manager's build. */
    static KubernetesCluster startForDevelopmentUntilTheJvmExits() {
        return stopAtJvmExit(KubernetesClusters.start(LocalApiServerOptions.builder().awaitControllerManager(false)
                .stopAtJvmExit(false).build()));
    }

    private static KubernetesCluster stopAtJvmExit(KubernetesCluster started) {
        // Concurrently with other hooks, among them Spring's, which close the application contexts:
        // the stop waits for the holds, which LocalKubernetes's contexts take. A context without one
        // (a cached test context) may still be watching the server and log a refused connection.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> JVM.stopAtExit(HOLD_LIMIT),
                "operator-starter-test-cluster-stop"));
        return started;
    }
}

package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.internal.DefaultServiceAccount;
import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.KubernetesApi;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes control plane as local processes: etcd, kube-apiserver and
 * kube-controller-manager on free loopback ports, with data in a temporary folder, like
 * controller-runtime's envtest plus the controllers envtest lacks.
 *
 * <p>What runs:
 * <ul>
 *   <li>kube-apiserver with TLS from a certificate authority generated for this run, RBAC
 *       authorization, and a service-account signing key, so the TokenRequest API issues real
 *       tokens that RBAC then judges;</li>
 *   <li>kube-controller-manager with the garbage collector (owner references), namespace
 *       (namespace deletion), service-account and service-account-token, root-CA publisher and
 *       cluster-role aggregation controllers. No scheduler and no kubelet: pods stay Pending,</li>
 *   <li>until nodes are asked for ({@link #ensureNodes}): then kube-scheduler, the workload
 *       controllers and KWOK join, and Pods run on KWOK's fake nodes.</li>
 * </ul>
 *
 * <p>Started from a binary folder without kube-controller-manager (envtest's
 * {@code KUBEBUILDER_ASSETS}), only etcd and kube-apiserver run, like envtest: there is no garbage
 * collection and no namespace finalisation, and the harness creates {@code default} service
 * accounts itself ({@link #hasControllerManager()} says which).
 *
 * <p>Guarantees: {@link #start} returns only when the API server is ready and the
 * {@code default} service account exists; on failure it stops whatever it
 * started and throws {@link ClusterStartException} with the last lines of the failing process's
 * log. {@link #close} stops all processes (SIGTERM, then SIGKILL) and deletes the data. No process
 * outlives the JVM, even one killed with SIGKILL, because each runs under a supervisor that stops
 * it when the JVM's end of a pipe closes.
 *
 * <p>Implementation: this class holds the lifecycle; the package-private parts are
 * {@code RunFolder} and {@code RunLayout} (the run's folder and files: certificates, kubeconfigs,
 * logs), {@code Etcd}, {@code KubeApiServer} and {@code KubeControllerManager} (each program's
 * command line), {@code ProcessLauncher} (starting a program and waiting until it is ready) and
 * {@code LocalBinaries} (building or finding the programs).
 */
public final class LocalApiServer implements KubernetesCluster {

    private static final Logger log = LoggerFactory.getLogger(LocalApiServer.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final int START_ATTEMPTS = 3;

    private final Path runDirectory;
    /** etcd, kube-apiserver, kube-controller-manager; the API server's entry changes on restart. */
    private final List<SupervisedProcess> processes;
    private final ClusterConnection connection;
    private final String serverVersion;
    private final Restart restart;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** kube-scheduler, the workload controllers and KWOK, once nodes are asked for; guarded by this. */
    private @Nullable LocalNodes nodes;

    /** What restarting the API server and compacting etcd need. */
    private record Restart(LocalBinaries.Resolved binaries, RunLayout layout, List<String> apiServerArguments,
            URI server, URI etcd, Duration timeout, LocalApiServerOptions options) {
    }

    private LocalApiServer(Path runDirectory, List<SupervisedProcess> processes, ClusterConnection connection,
            String serverVersion, Restart restart) {
        this.runDirectory = runDirectory;
        this.processes = new CopyOnWriteArrayList<>(processes);
        this.connection = connection;
        this.serverVersion = serverVersion;
        this.restart = restart;
        this.shutdownHook = new Thread(this::stopProcesses, "local-apiserver-shutdown");
    }

    /** Builds the binaries if needed, starts the control plane and waits until it is ready. */
    public static LocalApiServer start(LocalApiServerOptions options) {
        LocalBinaries.Resolved binaries = new LocalBinaries(options, System.getenv()).resolve();
        List<PortTakenException> portFailures = new ArrayList<>();
        for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
            try {
                LocalApiServer server = startOnce(binaries, options);
                if (options.stopAtJvmExit()) {
                    Runtime.getRuntime().addShutdownHook(server.shutdownHook);
                }
                return server;
            } catch (PortTakenException e) {
                // Another process took a port between our probe and the server's bind: try new ports.
                log.info("{}; retrying with new ports", e.getMessage());
                portFailures.add(e);
            }
        }
        ClusterStartException failure = new ClusterStartException("the local API server did not start: in "
                + START_ATTEMPTS + " attempts another process took a port first each time; last: "
                + portFailures.get(portFailures.size() - 1).getMessage(), portFailures.get(portFailures.size() - 1));
        portFailures.subList(0, portFailures.size() - 1).forEach(failure::addSuppressed);
        throw failure;
    }

    private static LocalApiServer startOnce(LocalBinaries.Resolved binaries, LocalApiServerOptions options) {
        Duration timeout = options.startTimeout();
        long started = System.nanoTime();
        Path run;
        try {
            run = RunFolder.create();
        } catch (IOException e) {
            throw new ClusterStartException("cannot create a folder for the local API server: " + e.getMessage(), e);
        }
        List<SupervisedProcess> processes = new ArrayList<>();
        try {
            int[] ports = freePorts(4);
            int etcdPort = ports[0];
            int etcdPeerPort = ports[1];
            int apiPort = ports[2];
            int controllerManagerPort = ports[3];
            URI server = URI.create("https://127.0.0.1:" + apiPort);
            RunLayout layout = RunLayout.create(run, server);
            long deadline = System.nanoTime() + timeout.toNanos();

            String etcdUrl = "https://127.0.0.1:" + etcdPort;
            SupervisedProcess etcd = ProcessLauncher.launch(processes, binaries, Binary.ETCD, layout,
                    Etcd.arguments(layout, etcdUrl, etcdPeerPort));
            SSLContext admin = layout.adminSsl();
            HttpClient tls = ProcessLauncher.endpointClient(admin);
            ProcessLauncher.awaitHealthy(etcd, tls, URI.create(etcdUrl + "/health"), deadline);

            List<String> apiServerArguments = KubeApiServer.arguments(layout, etcdUrl, apiPort,
                    options.extraApiServerArgs());
            SupervisedProcess apiserver = ProcessLauncher.launch(processes, binaries, Binary.KUBE_APISERVER, layout,
                    apiServerArguments);
            ProcessLauncher.awaitHealthy(apiserver, tls, server.resolve("/readyz"), deadline);

            KubernetesApi api = KubernetesApi.of(server, admin, null);
            if (binaries.controllerManager().isPresent()) {
                KubeControllerManager.start(processes, binaries, layout, controllerManagerPort, tls, api, deadline);
            } else {
                // What the service-account controller would have done for the namespace that exists at start.
                DefaultServiceAccount.ensure(api, "default");
            }
            String version = api.get("/version").orThrow("GET /version").path("gitVersion").asString();

            ClusterConnection connection = new ClusterConnection(server, layout.pki.caPem(),
                    layout.admin.certificatePem(), layout.admin.keyPem(), null, layout.adminKubeconfig);
            log.info("Local API server {} ready at {} in {} ms (data and logs in {})", version, server,
                    Duration.ofNanos(System.nanoTime() - started).toMillis(), run);
            Restart restart = new Restart(binaries, layout, apiServerArguments, server,
                    URI.create(etcdUrl), timeout, options);
            LocalApiServer localApiServer = new LocalApiServer(run, List.copyOf(processes), connection, version, restart);
            if (binaries.pendingControllerManager() != null) {
                binaries.pendingControllerManager().whenComplete((path, failure) -> localApiServer.joinControllerManager(
                        path, failure));
            }
            return localApiServer;
        } catch (RuntimeException e) {
            processes.forEach(p -> p.stop(STOP_GRACE));
            if (e instanceof PortTakenException) {
                Folders.deleteQuietly(run);
            }
            throw e instanceof ClusterStartException cse ? cse
                    : new ClusterStartException("the local API server did not start: " + e.getMessage()
                            + " (data and logs kept in " + run + ")", e);
        } catch (IOException e) {
            processes.forEach(p -> p.stop(STOP_GRACE));
            throw new ClusterStartException("the local API server did not start: " + e.getMessage(), e);
        }
    }

    /**
     * Starts kube-controller-manager beside the running server once its build, which the server
     * did not wait for, is done; a failure is logged, and the server goes on without it.
     */
    private synchronized void joinControllerManager(@Nullable Path binary, @Nullable Throwable buildFailure) {
        if (closed.get()) {
            return;
        }
        if (buildFailure != null || binary == null) {
            log.warn("kube-controller-manager could not be built; the local API server goes on without it", buildFailure);
            return;
        }
        long started = System.nanoTime();
        List<SupervisedProcess> launched = new ArrayList<>();
        try {
            HttpClient tls = ProcessLauncher.endpointClient(restart.layout().adminSsl());
            KubernetesApi api = KubernetesApi.of(restart.server(), restart.layout().adminSsl(), null);
            KubeControllerManager.start(launched, restart.binaries().withControllerManager(binary), restart.layout(),
                    freePorts(1)[0], tls, api, System.nanoTime() + restart.timeout().toNanos());
            processes.addAll(launched);
            log.info("kube-controller-manager joined the local API server at {} {} ms after its build", restart.server(),
                    Duration.ofNanos(System.nanoTime() - started).toMillis());
        } catch (IOException | RuntimeException e) {
            launched.forEach(process -> process.stop(STOP_GRACE));
            log.warn("kube-controller-manager did not start beside the local API server; it goes on without it: {}",
                    e.getMessage(), e);
        }
    }

    static int[] freePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(socket);
                ports[i] = socket.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : sockets) {
                socket.close();
            }
        }
    }

    /**
     * Makes sure at least {@code count} nodes run Pods, and returns the names of all nodes made so
     * far ({@code kwok-node-0}, {@code kwok-node-1}, ...). The first call adds kube-scheduler, a
     * second kube-controller-manager with the workload controllers (Deployments, ReplicaSets,
     * StatefulSets, DaemonSets, Jobs, CronJobs, disruption budgets, endpoint slices, Pod garbage
     * collection) and KWOK's controller to this running server, building kube-scheduler and KWOK first
     * if they are not cached (about 1.5 min each on 2 cores, side by side; see
     * docs/testing/build-times.md); later calls only add nodes. The nodes stay until the server stops.
     *
     * <p>On these nodes a Pod is scheduled, becomes Running and Ready at once (KWOK's default Stages),
     * and goes when deleted; a Pod owned by a Job completes. No container runs. What a Pod's
     * {@code log}, {@code exec}, {@code attach} and {@code portforward} subresources do is set by
     * KWOK's resources of API group {@code kwok.x-k8s.io/v1alpha1}, whose CRDs are installed here:
     * {@code Logs}, {@code Exec}, {@code Attach}, {@code PortForward} (namespaced, named like the Pod)
     * and their {@code Cluster*} variants (with a selector). The API server proxies those
     * subresources to KWOK's server over TLS it verifies. See docs/testing/local-api-server.md.
     *
     * @throws IllegalArgumentException if {@code count} is negative
     * @throws ClusterStartException if a binary cannot be built or a process does not become ready
     * @throws IllegalStateException if this server is closed
     */
    @Override
    public synchronized List<String> ensureNodes(int count) {
        if (count < 0) {
            throw new IllegalArgumentException("count must not be negative, was " + count);
        }
        if (closed.get()) {
            throw new IllegalStateException("the local API server is closed");
        }
        if (count == 0 && nodes == null) {
            return List.of();
        }
        if (nodes == null) {
            LocalBinaries local = new LocalBinaries(restart.options(), System.getenv());
            Map<Binary, Path> binaries = local.nodeBinaries();
            nodes = LocalNodes.start(binaries, controllerManagerBinary(), restart.binaries().supervisor(),
                    restart.layout(), KubernetesApi.of(restart.server(), restart.layout().adminSsl(), null),
                    ProcessLauncher.endpointClient(restart.layout().adminSsl()), restart.timeout());
            processes.addAll(nodes.processes());
        }
        return nodes.ensure(count);
    }

    /** The nodes {@link #ensureNodes} made so far; empty before its first call. */
    public synchronized List<String> nodeNames() {
        return nodes == null ? List.of() : nodes.names();
    }

    /** kube-controller-manager's binary, waiting for its build if the server did not; null if there is none. */
    private @Nullable Path controllerManagerBinary() {
        Optional<Path> resolved = restart.binaries().controllerManager();
        if (resolved.isPresent()) {
            return resolved.get();
        }
        CompletableFuture<Path> pending = restart.binaries().pendingControllerManager();
        if (pending == null) {
            return null;
        }
        try {
            return pending.join();
        } catch (RuntimeException e) {
            log.warn("kube-controller-manager could not be built; nodes run without the workload controllers", e);
            return null;
        }
    }

    /** The pinned Kubernetes release, for example {@code v1.37.2} (read from the wrapper module's go.mod). */
    public static String kubernetesVersion() {
        return LocalBinaries.kubernetesVersion();
    }

    /** The pinned etcd release, for example {@code v3.6.16}. */
    public static String etcdVersion() {
        return LocalBinaries.etcdVersion();
    }

    @Override
    public ClusterBackend backend() {
        return ClusterBackend.LOCAL;
    }

    @Override
    public ClusterConnection connection() {
        return connection;
    }

    @Override
    public String serverVersion() {
        return serverVersion;
    }

    /** The temporary folder with the data, certificates, kubeconfig and the processes' logs. */
    public Path runDirectory() {
        return runDirectory;
    }

    /** {@code false} when started from a binary folder without kube-controller-manager. */
    @Override
    public boolean hasControllerManager() {
        return processes.stream().anyMatch(process -> process.name().equals(Binary.KUBE_CONTROLLER_MANAGER.fileName()));
    }

    /**
     * The process ids of etcd, kube-apiserver, kube-controller-manager (when it runs) and, with
     * nodes, kube-scheduler, kube-controller-manager-workloads and kwok, by name.
     */
    public Map<String, Long> processIds() {
        Map<String, Long> pids = new LinkedHashMap<>();
        for (SupervisedProcess process : processes) {
            pids.put(process.name(), process.serverPid());
        }
        return pids;
    }

    /**
     * Stops kube-apiserver (SIGTERM, as a rolling restart would) and starts it again with the same
     * flags, port, certificates and etcd, then waits until it is ready. etcd and
     * kube-controller-manager keep running; clients see their connections and watches dropped and
     * can reconnect with the same {@link #connection()}. For tests of reconnection and relisting.
     *
     * @throws ClusterStartException if it does not become ready again, with its log
     * @throws IllegalStateException if this server is closed
     */
    public synchronized void restartApiServer() {
        if (closed.get()) {
            throw new IllegalStateException("the local API server is closed");
        }
        int index = indexOf(Binary.KUBE_APISERVER);
        SupervisedProcess old = processes.get(index);
        long started = System.nanoTime();
        old.stop(STOP_GRACE);
        List<SupervisedProcess> launched = new ArrayList<>();
        try {
            SupervisedProcess apiserver = ProcessLauncher.launch(launched, restart.binaries(), Binary.KUBE_APISERVER,
                    restart.layout(), restart.apiServerArguments());
            processes.set(index, apiserver);
            HttpClient tls = ProcessLauncher.endpointClient(restart.layout().adminSsl());
            ProcessLauncher.awaitHealthy(apiserver, tls, restart.server().resolve("/readyz"),
                    System.nanoTime() + restart.timeout().toNanos());
        } catch (IOException e) {
            throw new ClusterStartException("kube-apiserver did not restart: " + e.getMessage(), e);
        }
        log.info("kube-apiserver restarted at {} in {} ms", restart.server(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /**
     * Compacts etcd's history up to its current revision, so that reads and watches from an older
     * resourceVersion that reach etcd fail with 410 Gone (start the server with
     * {@code --watch-cache=false} so that every watch reaches etcd).
     *
     * @return the revision compacted to
     */
    public synchronized long compactEtcd() {
        if (closed.get()) {
            throw new IllegalStateException("the local API server is closed");
        }
        long current = Etcd.compact(restart.etcd(), restart.layout().etcdClientSsl());
        log.info("etcd compacted to revision {}", current);
        return current;
    }

    private int indexOf(Binary binary) {
        for (int i = 0; i < processes.size(); i++) {
            if (processes.get(i).name().equals(binary.fileName())) {
                return i;
            }
        }
        throw new IllegalStateException("no " + binary.fileName() + " process");
    }

    @Override
    public void close() {
        synchronized (this) {
            if (!closed.compareAndSet(false, true)) {
                return;
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException alreadyShuttingDown) {
            // the hook is running or has run
        }
        long started = System.nanoTime();
        log.info("Stopping the local API server at {}", connection.server());
        stopProcesses();
        Folders.deleteQuietly(runDirectory);
        log.info("Local API server at {} stopped in {} ms", connection.server(),
                Duration.ofNanos(System.nanoTime() - started).toMillis());
    }

    /** Stops in reverse start order: the nodes' processes, the controller manager, the API server, then etcd. */
    private void stopProcesses() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop(STOP_GRACE);
        }
    }
}

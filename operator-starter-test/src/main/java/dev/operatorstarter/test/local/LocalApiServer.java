package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterBackend;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.ClusterStartException;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.internal.Await;
import dev.operatorstarter.test.internal.DefaultServiceAccount;
import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.KubernetesApi;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.OwnerOnly;
import dev.operatorstarter.test.internal.Pki;
import dev.operatorstarter.test.internal.Tls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
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
 *       cluster-role aggregation controllers. No scheduler and no kubelet: pods stay Pending.</li>
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
 */
public final class LocalApiServer implements KubernetesCluster {

    private static final Logger log = LoggerFactory.getLogger(LocalApiServer.class);
    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** How long the supervisor lets etcd shut down after SIGTERM before it sends SIGKILL. */
    private static final Duration ETCD_SUPERVISOR_GRACE = Duration.ofSeconds(10);
    /**
     * The same for kube-apiserver and kube-controller-manager. They keep nothing of their own, and
     * when the JVM dies etcd gets its SIGTERM at the same moment, without which kube-apiserver cannot
     * finish its shutdown (it would sit out etcd's 10 s); with etcd up it takes 1 to 3 s.
     */
    private static final Duration STATELESS_SUPERVISOR_GRACE = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final int START_ATTEMPTS = 3;
    private static final String RUN_PREFIX = "operator-starter-apiserver-";
    private static final String OWNER_FILE = "owner.pid";
    private static final String CONTROLLERS = String.join(",", "garbage-collector-controller",
            "namespace-controller", "serviceaccount-controller", "serviceaccount-token-controller",
            "root-ca-certificate-publisher-controller", "clusterrole-aggregation-controller");

    private final Path runDirectory;
    /** etcd, kube-apiserver, kube-controller-manager; the API server's entry changes on restart. */
    private final List<SupervisedProcess> processes;
    private final ClusterConnection connection;
    private final String serverVersion;
    private final Restart restart;
    private final Thread shutdownHook;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** What restarting the API server and compacting etcd need. */
    private record Restart(LocalBinaries.Resolved binaries, Layout layout, List<String> apiServerArguments,
            URI server, URI etcd, Duration timeout) {
    }

    private LocalApiServer(Path runDirectory, List<SupervisedProcess> processes, ClusterConnection connection,
            String serverVersion, Restart restart) {
        this.runDirectory = runDirectory;
        this.processes = new java.util.concurrent.CopyOnWriteArrayList<>(processes);
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
            run = Files.createTempDirectory(RUN_PREFIX);
            OwnerOnly.restrict(run);
            Files.writeString(run.resolve(OWNER_FILE), Long.toString(ProcessHandle.current().pid()));
            sweepAbandonedRuns(run.getParent());
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
            Layout layout = Layout.create(run, server);
            long deadline = System.nanoTime() + timeout.toNanos();

            // etcd speaks TLS and demands a client certificate from this run's CA, so the probe
            // below cannot mistake another process on the port for ours, and nothing else on the
            // machine can read or write the cluster's data.
            String etcdUrl = "https://127.0.0.1:" + etcdPort;
            SupervisedProcess etcd = launch(processes, binaries, Binary.ETCD, layout, List.of(
                    "--name=default",
                    "--data-dir=" + run.resolve("etcd-data"),
                    "--listen-client-urls=" + etcdUrl,
                    "--advertise-client-urls=" + etcdUrl,
                    "--cert-file=" + layout.servingCert,
                    "--key-file=" + layout.servingKey,
                    "--client-cert-auth=true",
                    "--trusted-ca-file=" + layout.caCert,
                    "--listen-peer-urls=http://127.0.0.1:" + etcdPeerPort,
                    "--initial-advertise-peer-urls=http://127.0.0.1:" + etcdPeerPort,
                    "--initial-cluster=default=http://127.0.0.1:" + etcdPeerPort,
                    "--unsafe-no-fsync=true", // test data: durability is not worth the latency
                    "--log-level=warn"));
            SSLContext admin = layout.adminSsl();
            HttpClient tls = HttpClient.newBuilder().sslContext(admin).connectTimeout(Duration.ofSeconds(2)).build();
            awaitHealthy(etcd, tls, URI.create(etcdUrl + "/health"), deadline);

            List<String> apiServerArguments = new ArrayList<>(List.of(
                    "--etcd-servers=" + etcdUrl,
                    "--etcd-cafile=" + layout.caCert,
                    "--etcd-certfile=" + layout.etcdClientCert,
                    "--etcd-keyfile=" + layout.etcdClientKey,
                    "--bind-address=127.0.0.1",
                    "--advertise-address=127.0.0.1",
                    "--secure-port=" + apiPort,
                    "--cert-dir=" + run.resolve("apiserver-certs"),
                    "--tls-cert-file=" + layout.servingCert,
                    "--tls-private-key-file=" + layout.servingKey,
                    "--client-ca-file=" + layout.caCert,
                    "--authorization-mode=RBAC",
                    "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                    "--service-account-key-file=" + layout.serviceAccountPublicKey,
                    "--service-account-signing-key-file=" + layout.serviceAccountKey,
                    "--service-cluster-ip-range=10.0.0.0/24",
                    "--endpoint-reconciler-type=none", // a loopback address is not a valid endpoint
                    "--allow-privileged=true",
                    "--profiling=false",
                    // On SIGTERM, end open watches within a second instead of waiting up to 60 s
                    // for them to finish (they never do): a restart or close takes 3 s, not 13 s.
                    "--shutdown-watch-termination-grace-period=1s"));
            apiServerArguments.addAll(options.extraApiServerArgs()); // later flags win
            SupervisedProcess apiserver = launch(processes, binaries, Binary.KUBE_APISERVER, layout, apiServerArguments);
            awaitHealthy(apiserver, tls, server.resolve("/readyz"), deadline);

            KubernetesApi api = KubernetesApi.of(server, admin, null);
            if (binaries.controllerManager().isPresent()) {
                startControllerManager(processes, binaries, layout, controllerManagerPort, tls, api, deadline);
            } else {
                // What the service-account controller would have done for the namespace that exists at start.
                DefaultServiceAccount.ensure(api, "default");
            }
            String version = api.get("/version").orThrow("GET /version").path("gitVersion").asString();

            ClusterConnection connection = new ClusterConnection(server, layout.pki.caPem(),
                    layout.admin.certificatePem(), layout.admin.keyPem(), null, layout.adminKubeconfig);
            log.info("Local API server {} ready at {} in {} ms (data and logs in {})", version, server,
                    Duration.ofNanos(System.nanoTime() - started).toMillis(), run);
            Restart restart = new Restart(binaries, layout, List.copyOf(apiServerArguments), server,
                    URI.create(etcdUrl), timeout);
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

    /** Starts kube-controller-manager and waits until it serves and has made the default service account. */
    private static void startControllerManager(List<SupervisedProcess> processes, LocalBinaries.Resolved binaries,
            Layout layout, int port, HttpClient tls, KubernetesApi api, long deadline) throws IOException {
        SupervisedProcess controllerManager = launch(processes, binaries, Binary.KUBE_CONTROLLER_MANAGER, layout, List.of(
                "--kubeconfig=" + layout.controllerManagerKubeconfig,
                "--authentication-kubeconfig=" + layout.controllerManagerKubeconfig,
                "--authorization-kubeconfig=" + layout.controllerManagerKubeconfig,
                "--bind-address=127.0.0.1",
                "--secure-port=" + port,
                "--tls-cert-file=" + layout.servingCert,
                "--tls-private-key-file=" + layout.servingKey,
                "--controllers=" + CONTROLLERS,
                "--service-account-private-key-file=" + layout.serviceAccountKey,
                "--root-ca-file=" + layout.caCert,
                "--leader-elect=false",
                "--profiling=false"));
        awaitHealthy(controllerManager, tls, URI.create("https://127.0.0.1:" + port + "/healthz"), deadline);
        awaitReady(controllerManager, "the default service account (created by kube-controller-manager)",
                deadline, () -> api.get("/api/v1/namespaces/default/serviceaccounts/default").isSuccess());
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
            HttpClient tls = HttpClient.newBuilder().sslContext(restart.layout().adminSsl())
                    .connectTimeout(Duration.ofSeconds(2)).build();
            KubernetesApi api = KubernetesApi.of(restart.server(), restart.layout().adminSsl(), null);
            startControllerManager(launched, restart.binaries().withControllerManager(binary), restart.layout(),
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

    private static SupervisedProcess launch(List<SupervisedProcess> processes, LocalBinaries.Resolved binaries,
            Binary binary, Layout layout, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(binaries.path(binary).toString());
        command.addAll(arguments);
        SupervisedProcess process = SupervisedProcess.start(binary.fileName(), command,
                layout.logs.resolve(binary.fileName() + ".log"), binaries.supervisor(),
                binary == Binary.ETCD ? ETCD_SUPERVISOR_GRACE : STATELESS_SUPERVISOR_GRACE);
        processes.add(process);
        return process;
    }

    private static void awaitHealthy(SupervisedProcess process, HttpClient http, URI endpoint, long deadline) {
        awaitReady(process, endpoint.toString() + " to answer 200", deadline, () -> {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
                return response.statusCode() == 200;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterStartException("interrupted while starting " + process.name(), e);
            }
        });
    }

    /** Waits for {@code condition}, failing fast with the process's log if it exits. */
    private static void awaitReady(SupervisedProcess process, String what, long deadline,
            BooleanSupplier condition) {
        Duration remaining = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
        Outcome outcome;
        IllegalStateException timeout = null;
        try {
            outcome = Await.until(what, remaining, POLL, () -> {
                if (!process.isAlive()) {
                    return Optional.of(Outcome.EXITED);
                }
                return condition.getAsBoolean() ? Optional.of(Outcome.READY) : Optional.empty();
            });
        } catch (IllegalStateException e) {
            outcome = Outcome.TIMED_OUT;
            timeout = e;
        }
        if (outcome == Outcome.READY) {
            return;
        }
        String tail = process.logTail(40);
        if (outcome == Outcome.EXITED && tail.contains("address already in use")) {
            throw new PortTakenException(process.name() + " could not bind a port that was free a moment earlier ("
                    + process.state() + "); last lines of " + process.logFile() + ":\n" + tail);
        }
        throw new ClusterStartException(process.name() + " did not become ready (" + process.state()
                + ") while waiting for " + what + "; last lines of " + process.logFile() + ":\n" + tail, timeout);
    }

    private static int[] freePorts(int count) throws IOException {
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

    /** The process ids of etcd, kube-apiserver and (when it runs) kube-controller-manager, by name. */
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
            SupervisedProcess apiserver = launch(launched, restart.binaries(), Binary.KUBE_APISERVER, restart.layout(),
                    restart.apiServerArguments());
            processes.set(index, apiserver);
            HttpClient tls = HttpClient.newBuilder().sslContext(restart.layout().adminSsl())
                    .connectTimeout(Duration.ofSeconds(2)).build();
            awaitHealthy(apiserver, tls, restart.server().resolve("/readyz"), System.nanoTime() + restart.timeout().toNanos());
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
        HttpClient tls = HttpClient.newBuilder().sslContext(restart.layout().etcdClientSsl())
                .connectTimeout(Duration.ofSeconds(2)).build();
        // Any range answers with the store's current revision in its header.
        String range = etcdPost(tls, "/v3/kv/range", "{\"key\":\"AA==\"}");
        java.util.regex.Matcher revision = java.util.regex.Pattern
                .compile("\"revision\"\\s*:\\s*\"?(\\d+)").matcher(range);
        if (!revision.find()) {
            throw new IllegalStateException("etcd's range answer has no revision: " + range);
        }
        long current = Long.parseLong(revision.group(1));
        etcdPost(tls, "/v3/kv/compaction", "{\"revision\":\"" + current + "\",\"physical\":true}");
        log.info("etcd compacted to revision {}", current);
        return current;
    }

    private String etcdPost(HttpClient http, String path, String body) {
        URI uri = restart.etcd().resolve(path);
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("etcd refused POST " + uri + ": " + response.statusCode() + " "
                        + response.body());
            }
            return response.body();
        } catch (IOException e) {
            throw new IllegalStateException("POST " + uri + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during POST " + uri, e);
        }
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

    /** Stops in reverse start order: the controller manager, the API server, then etcd. */
    private void stopProcesses() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).stop(STOP_GRACE);
        }
    }

    /**
     * Deletes the run folders of JVMs that are gone (killed before they could clean up), so that
     * data folders do not pile up in the temporary directory.
     */
    static void sweepAbandonedRuns(Path temporaryDirectory) {
        try (java.nio.file.DirectoryStream<Path> runs = Files.newDirectoryStream(temporaryDirectory, RUN_PREFIX + "*")) {
            for (Path run : runs) {
                Path owner = run.resolve(OWNER_FILE);
                if (!Files.isRegularFile(owner)) {
                    continue; // not ours to judge
                }
                long pid;
                try {
                    pid = Long.parseLong(Files.readString(owner).trim());
                } catch (IOException | NumberFormatException e) {
                    continue;
                }
                if (ProcessHandle.of(pid).isEmpty()) {
                    log.info("Deleting {}, left by process {} which no longer runs", run, pid);
                    Folders.deleteQuietly(run);
                }
            }
        } catch (IOException | RuntimeException e) {
            log.debug("Could not sweep abandoned run folders in {}: {}", temporaryDirectory, e.toString());
        }
    }

    /** How waiting for a process ended. */
    private enum Outcome {
        READY, EXITED, TIMED_OUT
    }

    /** A server could not bind a port that was free a moment earlier. */
    private static final class PortTakenException extends ClusterStartException {
        private static final long serialVersionUID = 1L;

        PortTakenException(String message) {
            super(message);
        }
    }

    /** The files of one run: key material, kubeconfigs and logs. */
    private static final class Layout {
        final Pki pki;
        final Pki.Issued admin;
        final Path caCert;
        final Path servingCert;
        final Path servingKey;
        final Path etcdClientCert;
        final Path etcdClientKey;
        final Path serviceAccountKey;
        final Path serviceAccountPublicKey;
        final Path adminKubeconfig;
        final Path controllerManagerKubeconfig;
        final Path logs;

        private Layout(Path run, Pki pki, Pki.Issued admin) {
            this.pki = pki;
            this.admin = admin;
            Path pkiDir = run.resolve("pki");
            this.caCert = pkiDir.resolve("ca.crt");
            this.servingCert = pkiDir.resolve("serving.crt");
            this.servingKey = pkiDir.resolve("serving.key");
            this.etcdClientCert = pkiDir.resolve("etcd-client.crt");
            this.etcdClientKey = pkiDir.resolve("etcd-client.key");
            this.serviceAccountKey = pkiDir.resolve("service-account.key");
            this.serviceAccountPublicKey = pkiDir.resolve("service-account.pub");
            this.adminKubeconfig = run.resolve("kubeconfig");
            this.controllerManagerKubeconfig = run.resolve("controller-manager.kubeconfig");
            this.logs = run.resolve("logs");
        }

        static Layout create(Path run, URI server) throws IOException {
            Pki pki = Pki.newAuthority("operator-starter-test-ca");
            Pki.Issued admin = pki.client("operator-starter-admin", "system:masters");
            Layout layout = new Layout(run, pki, admin);
            Files.createDirectories(layout.caCert.getParent());
            Files.createDirectories(layout.logs);
            Pki.Issued serving = pki.serving("kube-apiserver",
                    List.of("localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                            "kubernetes.default.svc.cluster.local"),
                    List.of("127.0.0.1", "10.0.0.1"));
            Pki.Issued etcdClient = pki.client("kube-apiserver-etcd-client", "system:masters");
            Pki.SigningKey serviceAccount = Pki.serviceAccountKeyPair();
            Files.writeString(layout.caCert, pki.caPem());
            Files.writeString(layout.servingCert, serving.certificatePem());
            OwnerOnly.write(layout.servingKey, serving.keyPem());
            Files.writeString(layout.etcdClientCert, etcdClient.certificatePem());
            OwnerOnly.write(layout.etcdClientKey, etcdClient.keyPem());
            OwnerOnly.write(layout.serviceAccountKey, serviceAccount.privatePem());
            Files.writeString(layout.serviceAccountPublicKey, serviceAccount.publicPem());
            Kubeconfig.write(layout.adminKubeconfig, "operator-starter-local", server, pki.caPem(),
                    admin.certificatePem(), admin.keyPem(), null);
            // The controller manager acts as a cluster administrator: its controllers need broad
            // rights, and this harness does not split credentials per controller.
            Pki.Issued controllerManager = pki.client("system:kube-controller-manager", "system:masters");
            Kubeconfig.write(layout.controllerManagerKubeconfig, "kube-controller-manager", server, pki.caPem(),
                    controllerManager.certificatePem(), controllerManager.keyPem(), null);
            return layout;
        }

        SSLContext adminSsl() {
            return Tls.sslContext(pki.caPem(), admin.certificatePem(),
                    admin.keyPem());
        }

        /** The API server's own etcd client certificate, for maintenance calls to etcd. */
        SSLContext etcdClientSsl() {
            try {
                return Tls.sslContext(pki.caPem(), Files.readString(etcdClientCert), Files.readString(etcdClientKey));
            } catch (IOException e) {
                throw new IllegalStateException("cannot read the etcd client certificate: " + e.getMessage(), e);
            }
        }
    }
}

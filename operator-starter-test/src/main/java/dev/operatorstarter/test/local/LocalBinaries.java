package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the local API server's binaries: the user's own folder when one is configured, else the
 * cache entries for the pinned versions, built with Go on first use.
 *
 * <p>Each binary has a cache entry of its own, so a run builds only what it lacks. etcd and
 * kube-apiserver are built side by side (etcd's build mostly waits on its downloads while
 * kube-apiserver's compiles); kube-controller-manager is built after kube-apiserver, whose
 * compiled packages it reuses from Go's build cache. When {@link LocalApiServerOptions#awaitControllerManager()}
 * is false, the server need not wait for that last build: {@link Resolved#pendingControllerManager()}
 * completes once it is done.
 */
final class LocalBinaries {

    private static final Logger log = LoggerFactory.getLogger(LocalBinaries.class);

    /**
     * Resolved executables. The supervisor is absent only when neither it nor Go could be found;
     * kube-controller-manager when the user's binary folder has none, or while it is still being
     * built ({@link #pendingControllerManager()}).
     */
    record Resolved(Map<Binary, Path> paths, String kubernetesVersion, String etcdVersion,
            @Nullable CompletableFuture<Path> pendingControllerManager) {

        Resolved(Map<Binary, Path> paths, String kubernetesVersion, String etcdVersion) {
            this(paths, kubernetesVersion, etcdVersion, null);
        }

        Optional<Path> controllerManager() {
            return Optional.ofNullable(paths.get(Binary.KUBE_CONTROLLER_MANAGER));
        }

        Path path(Binary binary) {
            Path path = paths.get(binary);
            if (path == null) {
                throw new IllegalStateException(binary + " was not resolved");
            }
            return path;
        }

        Optional<Path> supervisor() {
            return Optional.ofNullable(paths.get(Binary.SUPERVISOR));
        }

        /** Resolved with kube-controller-manager at {@code path}, as once its pending build is done. */
        Resolved withControllerManager(Path path) {
            Map<Binary, Path> all = new EnumMap<>(paths);
            all.put(Binary.KUBE_CONTROLLER_MANAGER, path);
            return new Resolved(all, kubernetesVersion, etcdVersion, null);
        }
    }

    private final LocalApiServerOptions options;
    private final Map<String, String> environment;
    private final BinaryCache cache;

    LocalBinaries(LocalApiServerOptions options, Map<String, String> environment) {
        this.options = options;
        this.environment = environment;
        this.cache = new BinaryCache(options.cacheDirectory());
    }

    static String kubernetesVersion() {
        return GoModule.KUBERNETES.upstreamVersion();
    }

    static String etcdVersion() {
        return GoModule.ETCD.upstreamVersion();
    }

    /**
     * A server binary's cache entry name: the binary, its upstream version, the platform and a
     * fingerprint of its build recipe and wrapper module, for example
     * {@code kube-apiserver-v1.37.2_linux-amd64_0123456789ab}.
     */
    static String cacheKey(Binary binary) {
        return binary.fileName() + "-" + binary.module().upstreamVersion() + "_" + platform() + "_"
                + GoModule.fingerprint(GoToolchain.recipe(List.of(binary)), binary.module());
    }

    /** The supervisor's own entry, so that changing it never forces the servers to be rebuilt. */
    static String supervisorCacheKey() {
        return "supervisor_" + platform() + "_" + GoModule.fingerprint(GoToolchain.recipe(List.of(Binary.SUPERVISOR)),
                GoModule.SUPERVISOR);
    }

    Resolved resolve() {
        Map<Binary, Path> paths = new EnumMap<>(Binary.class);
        Path override = options.binaryDirectory();
        @Nullable CompletableFuture<Path> pending = null;
        if (override != null) {
            for (Binary binary : List.of(Binary.ETCD, Binary.KUBE_APISERVER)) {
                Path path = override.resolve(binary.fileName());
                if (!isExecutable(path)) {
                    throw new ClusterStartException("the binary folder " + override + " (from "
                            + LocalApiServerOptions.BINARY_DIR_PROPERTY + ", " + LocalApiServerOptions.BINARY_DIR_ENV
                            + " or " + LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV + ", the first one set) has no "
                            + "executable " + binary.fileName() + "; it must hold etcd and kube-apiserver, and "
                            + "should hold kube-controller-manager");
                }
                paths.put(binary, path);
            }
            Path controllerManager = override.resolve(Binary.KUBE_CONTROLLER_MANAGER.fileName());
            if (isExecutable(controllerManager)) {
                paths.put(Binary.KUBE_CONTROLLER_MANAGER, controllerManager);
            } else {
                log.warn("The binary folder {} has no kube-controller-manager (envtest's folders have none): the local "
                        + "API server runs without it. Objects whose owner is deleted are not garbage-collected, "
                        + "deleted namespaces stay Terminating, and the harness creates each namespace's default "
                        + "service account itself. Add kube-controller-manager {} to the folder for all three.",
                        override, kubernetesVersion());
            }
        } else {
            // etcd beside kube-apiserver; kube-controller-manager after kube-apiserver, reusing its packages
            CompletableFuture<Path> etcd = inBackground(Binary.ETCD, CompletableFuture.completedFuture(null));
            CompletableFuture<Path> apiserver = inBackground(Binary.KUBE_APISERVER, CompletableFuture.completedFuture(null));
            CompletableFuture<Path> controllerManager = inBackground(Binary.KUBE_CONTROLLER_MANAGER, apiserver);
            paths.put(Binary.ETCD, join(etcd));
            paths.put(Binary.KUBE_APISERVER, join(apiserver));
            if (options.awaitControllerManager() || controllerManager.isDone()) {
                paths.put(Binary.KUBE_CONTROLLER_MANAGER, join(controllerManager));
            } else {
                log.info("The API server starts without waiting for kube-controller-manager's build; it joins once "
                        + "built (until then objects whose owner is deleted stay, and deleted namespaces stay Terminating)");
                pending = controllerManager;
            }
        }
        supervisor(override).ifPresent(path -> paths.put(Binary.SUPERVISOR, path));
        return new Resolved(paths, kubernetesVersion(), etcdVersion(), pending);
    }

    /**
     * Makes sure the given server binaries are in the cache, building what is missing (etcd, kube-scheduler
     * and kwok beside kube-apiserver, kube-controller-manager after kube-apiserver when both are asked for), and
     * returns their paths. A user's binary folder is not looked at.
     */
    Map<Binary, Path> prebuild(List<Binary> binaries) {
        CompletableFuture<Path> apiserver = binaries.contains(Binary.KUBE_APISERVER)
                ? inBackground(Binary.KUBE_APISERVER, CompletableFuture.completedFuture(null)) : null;
        Map<Binary, CompletableFuture<Path>> builds = new EnumMap<>(Binary.class);
        for (Binary binary : binaries) {
            builds.put(binary, switch (binary) {
                case KUBE_APISERVER -> apiserver;
                case KUBE_CONTROLLER_MANAGER -> inBackground(binary, apiserver != null ? apiserver
                        : CompletableFuture.completedFuture(null));
                case ETCD, KUBE_SCHEDULER, KWOK -> inBackground(binary, CompletableFuture.completedFuture(null));
                case SUPERVISOR -> throw new IllegalArgumentException("the supervisor is built with the server");
            });
        }
        Map<Binary, Path> paths = new EnumMap<>(Binary.class);
        builds.forEach((binary, build) -> paths.put(binary, join(build)));
        return paths;
    }

    /**
     * kube-scheduler and KWOK, which only a server with nodes runs ({@code LocalNodes}): from the
     * user's binary folder when it holds both, else from the cache, built side by side on first use.
     * kube-scheduler's build reuses the packages kube-apiserver's left in Go's build cache.
     */
    Map<Binary, Path> nodeBinaries() {
        Path override = options.binaryDirectory();
        if (override != null && isExecutable(override.resolve(Binary.KUBE_SCHEDULER.fileName()))
                && isExecutable(override.resolve(Binary.KWOK.fileName()))) {
            return Map.of(Binary.KUBE_SCHEDULER, override.resolve(Binary.KUBE_SCHEDULER.fileName()),
                    Binary.KWOK, override.resolve(Binary.KWOK.fileName()));
        }
        if (override != null) {
            log.info("The binary folder {} lacks kube-scheduler or kwok; both come from the cache ({}) instead",
                    override, cache.root());
        }
        CompletableFuture<Path> scheduler = inBackground(Binary.KUBE_SCHEDULER, CompletableFuture.completedFuture(null));
        CompletableFuture<Path> kwok = inBackground(Binary.KWOK, CompletableFuture.completedFuture(null));
        Map<Binary, Path> paths = new EnumMap<>(Binary.class);
        paths.put(Binary.KUBE_SCHEDULER, join(scheduler));
        paths.put(Binary.KWOK, join(kwok));
        return paths;
    }

    /** {@code binary}'s path, from the cache or built there on a thread of its own once {@code after} is done. */
    private CompletableFuture<Path> inBackground(Binary binary, CompletableFuture<?> after) {
        List<String> file = List.of(binary.fileName());
        String key = cacheKey(binary);
        Path entry = cache.root().resolve(key);
        if (cache.verify(entry, file).isEmpty()) {
            return CompletableFuture.completedFuture(entry.resolve(binary.fileName()));
        }
        GoToolchain go = requireGo(binary);
        CompletableFuture<Path> built = new CompletableFuture<>();
        after.whenComplete((ignored, failure) -> {
            if (failure != null) {
                built.completeExceptionally(failure);
                return;
            }
            Thread thread = new Thread(() -> {
                try {
                    built.complete(cache.obtain(key, file, output -> go.build(List.of(binary), output))
                            .resolve(binary.fileName()));
                } catch (Throwable e) {
                    built.completeExceptionally(e);
                }
            }, "build-" + binary.fileName());
            thread.setDaemon(true);
            thread.start();
        });
        return built;
    }

    private static Path join(CompletableFuture<Path> build) {
        try {
            return build.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new ClusterStartException("building a binary failed: " + e.getCause(), e.getCause());
        }
    }

    private static boolean isExecutable(Path path) {
        return Files.isRegularFile(path) && Files.isExecutable(path);
    }

    /**
     * The supervisor: from the user's binary folder if it has one, else from the cache (a
     * one-second build). Without it and without Go, the servers still run, but a JVM killed with
     * SIGKILL may leave them behind.
     */
    private Optional<Path> supervisor(@Nullable Path override) {
        if (override != null && Files.isExecutable(override.resolve(Binary.SUPERVISOR.fileName()))) {
            return Optional.of(override.resolve(Binary.SUPERVISOR.fileName()));
        }
        List<String> file = List.of(Binary.SUPERVISOR.fileName());
        Path entry = cache.root().resolve(supervisorCacheKey());
        if (cache.verify(entry, file).isEmpty()) {
            return Optional.of(entry.resolve(Binary.SUPERVISOR.fileName()));
        }
        Optional<Path> go = GoToolchain.locate(environment);
        if (go.isEmpty()) {
            log.warn("No supervisor binary and no Go toolchain: the local API server's processes will be stopped "
                    + "on a normal JVM exit, but may outlive a JVM that is killed with SIGKILL");
            return Optional.empty();
        }
        GoToolchain toolchain = new GoToolchain(go.get(), options.buildTimeout());
        return Optional.of(cache.obtain(supervisorCacheKey(), file,
                output -> toolchain.build(List.of(Binary.SUPERVISOR), output)).resolve(Binary.SUPERVISOR.fileName()));
    }

    private GoToolchain requireGo(Binary binary) {
        return new GoToolchain(GoToolchain.locate(environment).orElseThrow(() -> new ClusterStartException(
                binary == Binary.KUBE_SCHEDULER || binary == Binary.KWOK ? missingGoForNodesMessage(cache.root())
                        : missingGoMessage(cache.root()))), options.buildTimeout());
    }

    static String missingGoForNodesMessage(@Nullable Path cacheRoot) {
        return "Nodes for the local Kubernetes API server need kube-scheduler " + kubernetesVersion() + " and kwok "
                + GoModule.KWOK.upstreamVersion() + ". They are not in the cache (" + cacheRoot + ") and cannot be "
                + "built: no 'go' command was found on the PATH, in $GOROOT/bin or in /usr/local/go/bin. Either "
                + "install Go 1.26 or newer (https://go.dev/doc/install), or put both in the folder named by "
                + LocalApiServerOptions.BINARY_DIR_ENV + " (or " + LocalApiServerOptions.BINARY_DIR_PROPERTY
                + "), or ask for no nodes (@KubernetesTest without nodes, operator.local.nodes=0).";
    }

    static String missingGoMessage(@Nullable Path cacheRoot) {
        return "The local Kubernetes API server needs etcd " + etcdVersion() + ", kube-apiserver and "
                + "kube-controller-manager " + kubernetesVersion() + ". They are not in the cache (" + cacheRoot
                + ") and cannot be built: no 'go' command was found on the PATH, in $GOROOT/bin or in "
                + "/usr/local/go/bin. Either install Go 1.26 or newer (https://go.dev/doc/install) and put 'go' on "
                + "the PATH, or set the environment variable " + LocalApiServerOptions.BINARY_DIR_ENV
                + " (or the system property " + LocalApiServerOptions.BINARY_DIR_PROPERTY + ", or envtest's "
                + LocalApiServerOptions.KUBEBUILDER_ASSETS_ENV + ") to a folder holding the binaries, or choose another "
                + "backend with OPERATOR_TEST_CLUSTER=k3s (needs Docker) or "
                + "OPERATOR_TEST_CLUSTER=existing.";
    }

    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT);
        String goos = os.startsWith("windows") ? "windows" : os.contains("mac") ? "darwin" : os.replace(' ', '-');
        String arch = System.getProperty("os.arch", "unknown");
        String goarch = switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64", "arm64" -> "arm64";
            default -> arch;
        };
        return goos + "-" + goarch;
    }
}

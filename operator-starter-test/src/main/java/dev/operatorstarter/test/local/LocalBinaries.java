package dev.operatorstarter.test.local;

import dev.operatorstarter.test.ClusterStartException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the local API server's binaries: the user's own folder when one is configured, else the
 * cache entry for the pinned versions, built with Go on first use.
 */
final class LocalBinaries {

    private static final Logger log = LoggerFactory.getLogger(LocalBinaries.class);
    private static final List<Binary> SERVERS = List.of(Binary.ETCD, Binary.KUBE_APISERVER,
            Binary.KUBE_CONTROLLER_MANAGER);

    /**
     * Resolved executables. The supervisor is absent only when neither it nor Go could be found;
     * kube-controller-manager only when the user's binary folder has none.
     */
    record Resolved(Map<Binary, Path> paths, String kubernetesVersion, String etcdVersion) {

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

    /** The servers' cache entry name: versions, platform and a fingerprint of their wrapper modules. */
    static String cacheKey() {
        return "kubernetes-" + kubernetesVersion() + "_etcd-" + etcdVersion() + "_" + platform() + "_"
                + GoModule.fingerprint(GoToolchain.recipe(SERVERS), GoModule.KUBERNETES, GoModule.ETCD);
    }

    /** The supervisor's own entry, so that changing it never forces the servers to be rebuilt. */
    static String supervisorCacheKey() {
        return "supervisor_" + platform() + "_" + GoModule.fingerprint(GoToolchain.recipe(List.of(Binary.SUPERVISOR)),
                GoModule.SUPERVISOR);
    }

    Resolved resolve() {
        Map<Binary, Path> paths = new EnumMap<>(Binary.class);
        Path override = options.binaryDirectory();
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
            Path entry = cache.obtain(cacheKey(), SERVERS.stream().map(Binary::fileName).toList(),
                    output -> requireGo().build(SERVERS, output));
            SERVERS.forEach(binary -> paths.put(binary, entry.resolve(binary.fileName())));
        }
        supervisor(override).ifPresent(path -> paths.put(Binary.SUPERVISOR, path));
        return new Resolved(paths, kubernetesVersion(), etcdVersion());
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

    private GoToolchain requireGo() {
        return new GoToolchain(GoToolchain.locate(environment).orElseThrow(() -> new ClusterStartException(
                missingGoMessage(cache.root()))), options.buildTimeout());
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

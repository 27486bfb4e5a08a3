package dev.operatorstarter.test.local;

import dev.operatorstarter.test.internal.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options for {@link LocalApiServer}. Build with {@link #builder()}; {@link #defaults()} reads the
 * overrides below from system properties and the environment.
 *
 * @param startTimeout how long etcd, kube-apiserver and kube-controller-manager together may take
 *     to become ready once the binaries exist; default 60 s
 * @param buildTimeout how long compiling one binary may take; default 45 min (a cold build of all
 *     three on 2 cores takes several minutes, see docs/testing/build-times.md)
 * @param binaryDirectory a folder holding {@code etcd} and {@code kube-apiserver}, and optionally
 *     {@code kube-controller-manager}, to use instead of building them; default: system property
 *     {@value #BINARY_DIR_PROPERTY}, else environment variable {@value #BINARY_DIR_ENV}, else
 *     environment variable {@value #KUBEBUILDER_ASSETS_ENV} (the folder controller-runtime's envtest
 *     and {@code setup-envtest} use, which has no controller manager), else none
 * @param cacheDirectory where built binaries are cached, keyed by version; default: system property
 *     {@value #CACHE_DIR_PROPERTY}, else environment variable {@value #CACHE_DIR_ENV}, else
 *     {@code operator-starter/binaries} in the user's cache folder ({@code $XDG_CACHE_HOME} or
 *     {@code ~/.cache} on Linux, {@code ~/Library/Caches} on macOS, {@code %LOCALAPPDATA%} on Windows)
 * @param extraApiServerArgs flags added after the harness's own kube-apiserver flags (a later
 *     flag wins), for example {@code --watch-cache=false}; each must start with {@code --};
 *     default none
 * @param awaitControllerManager whether the server waits for kube-controller-manager when its binary
 *     still has to be built (about 2.5 min on 2 cores after kube-apiserver's build); when false the
 *     server starts as soon as etcd and kube-apiserver are there, and the controller manager joins
 *     once built, so garbage collection and namespace deletion begin late. Default true: tests see
 *     the same server whether or not the binaries were cached. Development runs
 *     ({@code KubernetesClusters.sharedForDevelopment()}) set it false.
 * @param stopAtJvmExit whether the server stops its processes from a JVM shutdown hook of its own
 *     when it has not been closed before; default true. The JVM's shared cluster sets it false: it
 *     stops the server from its own hook, once the applications that hold it have stopped
 *     ({@code KubernetesClusters.holdShared()}). The supervisor stops the processes of a JVM that
 *     dies without its hooks either way.
 */
public record LocalApiServerOptions(Duration startTimeout, Duration buildTimeout, @Nullable Path binaryDirectory,
        Path cacheDirectory, List<String> extraApiServerArgs, boolean awaitControllerManager, boolean stopAtJvmExit) {

    public static final String BINARY_DIR_PROPERTY = "operator.test.binary-dir";
    public static final String BINARY_DIR_ENV = "OPERATOR_TEST_BINARY_DIR";
    /** envtest's binary folder, used when neither binary-folder setting above is set. */
    public static final String KUBEBUILDER_ASSETS_ENV = "KUBEBUILDER_ASSETS";
    public static final String CACHE_DIR_PROPERTY = "operator.test.cache-dir";
    public static final String CACHE_DIR_ENV = "OPERATOR_TEST_CACHE_DIR";

    public LocalApiServerOptions {
        Objects.requireNonNull(startTimeout, "startTimeout");
        Objects.requireNonNull(buildTimeout, "buildTimeout");
        Objects.requireNonNull(cacheDirectory, "cacheDirectory");
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new IllegalArgumentException("startTimeout must be positive, was " + startTimeout);
        }
        if (buildTimeout.isNegative() || buildTimeout.isZero()) {
            throw new IllegalArgumentException("buildTimeout must be positive, was " + buildTimeout);
        }
        extraApiServerArgs = List.copyOf(Objects.requireNonNull(extraApiServerArgs, "extraApiServerArgs"));
        for (String argument : extraApiServerArgs) {
            if (!argument.startsWith("--")) {
                throw new IllegalArgumentException("extraApiServerArgs: each must be a flag starting with --, was \""
                        + argument + "\"");
            }
        }
    }

    /** The defaults, with the overrides read from system properties and the environment. */
    public static LocalApiServerOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder(System.getenv());
    }

    static Builder builder(Map<String, String> environment) {
        return new Builder(environment);
    }

    /** Builds {@link LocalApiServerOptions}; unset fields take the documented defaults. */
    public static final class Builder {

        private final Map<String, String> environment;
        private Duration startTimeout = Duration.ofSeconds(60);
        private Duration buildTimeout = Duration.ofMinutes(45);
        private @Nullable Path binaryDirectory;
        private @Nullable Path cacheDirectory;
        private final List<String> extraApiServerArgs = new ArrayList<>();
        private boolean awaitControllerManager = true;
        private boolean stopAtJvmExit = true;

        private Builder(Map<String, String> environment) {
            this.environment = environment;
            String binaries = setting(BINARY_DIR_PROPERTY, BINARY_DIR_ENV);
            if (binaries == null) {
                String assets = environment.get(KUBEBUILDER_ASSETS_ENV);
                binaries = assets == null || assets.isBlank() ? null : assets;
            }
            this.binaryDirectory = binaries == null ? null : Path.of(binaries);
            String cache = setting(CACHE_DIR_PROPERTY, CACHE_DIR_ENV);
            this.cacheDirectory = cache == null ? null : Path.of(cache);
        }

        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = startTimeout;
            return this;
        }

        public Builder buildTimeout(Duration buildTimeout) {
            this.buildTimeout = buildTimeout;
            return this;
        }

        public Builder binaryDirectory(@Nullable Path binaryDirectory) {
            this.binaryDirectory = binaryDirectory;
            return this;
        }

        public Builder cacheDirectory(Path cacheDirectory) {
            this.cacheDirectory = cacheDirectory;
            return this;
        }

        /** Adds a kube-apiserver flag, for example {@code --watch-cache=false}. */
        public Builder apiServerArg(String flag) {
            extraApiServerArgs.add(flag);
            return this;
        }

        /** Whether the server waits for kube-controller-manager's first build; see the record. */
        public Builder awaitControllerManager(boolean awaitControllerManager) {
            this.awaitControllerManager = awaitControllerManager;
            return this;
        }

        /** Whether the server stops from a JVM shutdown hook of its own; see the record. */
        public Builder stopAtJvmExit(boolean stopAtJvmExit) {
            this.stopAtJvmExit = stopAtJvmExit;
            return this;
        }

        public LocalApiServerOptions build() {
            Path cache = cacheDirectory != null ? cacheDirectory : userCacheDirectory().resolve("operator-starter/binaries");
            return new LocalApiServerOptions(startTimeout, buildTimeout, binaryDirectory, cache, extraApiServerArgs,
                    awaitControllerManager, stopAtJvmExit);
        }

        private @Nullable String setting(String property, String variable) {
            return Settings.get(property, variable, environment);
        }

        private Path userCacheDirectory() {
            String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
            Path home = Path.of(System.getProperty("user.home"));
            if (os.startsWith("windows")) {
                String local = environment.get("LOCALAPPDATA");
                return local != null ? Path.of(local) : home.resolve("AppData/Local");
            }
            if (os.contains("mac")) {
                return home.resolve("Library/Caches");
            }
            String xdg = environment.get("XDG_CACHE_HOME");
            return xdg != null && !xdg.isBlank() ? Path.of(xdg) : home.resolve(".cache");
        }
    }
}

package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.Folders;
import dev.operatorstarter.test.internal.Kubeconfig;
import dev.operatorstarter.test.internal.OwnerOnly;
import dev.operatorstarter.test.internal.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * A cluster the user already runs, reached through a kubeconfig. Used only when asked for
 * ({@code OPERATOR_TEST_CLUSTER=existing}); the harness creates namespaces (and installs the CRDs
 * a test names) but never starts or stops anything.
 */
final class ExistingCluster implements KubernetesCluster {

    static final String KUBECONFIG_PROPERTY = "operator.test.kubeconfig";
    static final String KUBECONFIG_ENV = "OPERATOR_TEST_KUBECONFIG";
    static final String CONTEXT_PROPERTY = "operator.test.context";
    static final String CONTEXT_ENV = "OPERATOR_TEST_CONTEXT";

    private final ClusterConnection connection;
    private final String serverVersion;
    private final Path directory;

    private ExistingCluster(ClusterConnection connection, String serverVersion, Path directory) {
        this.connection = connection;
        this.serverVersion = serverVersion;
        this.directory = directory;
    }

    static ExistingCluster connect(Map<String, String> environment) {
        Path source = kubeconfigPath(environment);
        String context = Settings.get(CONTEXT_PROPERTY, CONTEXT_ENV, environment);
        Kubeconfig.Entry entry;
        try {
            entry = Kubeconfig.read(source, context);
        } catch (IllegalArgumentException e) {
            throw new ClusterStartException("cannot use the existing cluster: " + e.getMessage(), e);
        }
        Path directory = null;
        try {
            // A kubeconfig of its own, whose current context is the chosen one, for the code under test.
            directory = Files.createTempDirectory("operator-starter-existing-");
            OwnerOnly.restrict(directory);
            ClusterConnection connection = entry.writeTo(directory.resolve("kubeconfig"), entry.context());
            return new ExistingCluster(connection, new ClusterAccess(connection).serverVersion(), directory);
        } catch (IOException | RuntimeException e) {
            Folders.deleteQuietly(directory);
            if (e instanceof ClusterStartException cse) {
                throw cse;
            }
            throw new ClusterStartException("cannot reach the existing cluster of context '" + entry.context()
                    + "' in " + source + " at " + entry.server() + ": " + e.getMessage(), e);
        }
    }

    private static Path kubeconfigPath(Map<String, String> environment) {
        String explicit = Settings.get(KUBECONFIG_PROPERTY, KUBECONFIG_ENV, environment);
        if (explicit != null) {
            return Path.of(explicit);
        }
        String kubeconfig = blankToNull(environment.get("KUBECONFIG"));
        if (kubeconfig != null) {
            // Several files are merged by kubectl; the harness reads the first, which holds the
            // current context in the usual setups. The operator runtime's loader does the full merge.
            return Path.of(kubeconfig.split(java.io.File.pathSeparator)[0]);
        }
        return Path.of(System.getProperty("user.home"), ".kube", "config");
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public ClusterBackend backend() {
        return ClusterBackend.EXISTING;
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
        Folders.deleteQuietly(directory);
    }
}

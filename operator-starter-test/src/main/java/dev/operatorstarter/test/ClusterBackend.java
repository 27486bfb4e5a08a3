package dev.operatorstarter.test;

import dev.operatorstarter.test.internal.Settings;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Where a test cluster comes from.
 *
 * <p>Selection ({@link #select}): the explicit choice in the system property
 * {@value #PROPERTY} or the environment variable {@value #ENV} ({@code local}, {@code k3s} or
 * {@code existing}); else K3s when Testcontainers is on the classpath and a Docker engine answers;
 * else the local processes. An existing cluster is used only when asked for by name.
 */
public enum ClusterBackend {

    /** etcd, kube-apiserver and kube-controller-manager as local processes, built with Go. */
    LOCAL,
    /** K3s in a container, through Testcontainers. Needs a Docker engine. */
    K3S,
    /**
     * A cluster the user already has, from a kubeconfig: system property
     * {@code operator.test.kubeconfig} or {@code OPERATOR_TEST_KUBECONFIG}, else {@code KUBECONFIG},
     * else {@code ~/.kube/config}; context {@code operator.test.context} or
     * {@code OPERATOR_TEST_CONTEXT}, else the current one. Tests get fresh namespaces; nothing else is changed except installed CRDs.
     */
    EXISTING;

    public static final String PROPERTY = "operator.test.cluster";
    public static final String ENV = "OPERATOR_TEST_CLUSTER";

    /** The backend to use given the explicit choice, if any, and whether Docker answers. */
    public static ClusterBackend select(@Nullable String explicitChoice, boolean dockerAvailable) {
        if (explicitChoice != null && !explicitChoice.isBlank()) {
            return parse(explicitChoice);
        }
        return dockerAvailable ? K3S : LOCAL;
    }

    /** The explicit choice from the system property, else the environment, else {@code null}. */
    public static @Nullable String explicitChoice(Map<String, String> environment) {
        return Settings.get(PROPERTY, ENV, environment);
    }

    static ClusterBackend parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ClusterStartException("unknown test cluster backend '" + value + "' in " + PROPERTY + " / " + ENV
                    + "; use local, k3s or existing");
        }
    }
}

package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.client.config.ConfigException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A kubeconfig or in-cluster configuration that exists but cannot be used: a named file that is
 * missing, a file that is not a kubeconfig, a field of the wrong shape. The cases with analyzers
 * of their own (no configuration at all, an unknown context, an unreadable certificate) are left
 * to them, whatever the order the analyzers run in.
 */
final class InvalidKubernetesConfigFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException> {

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, ConfigException cause) {
        if (cause.getClass() != ConfigException.class) {
            return null;
        }
        return new FailureAnalysis("The operator cannot use its Kubernetes configuration: " + cause.getMessage() + ".",
                """
                Fix the file named above, or point the application at another one: operator.client.kubeconfig
                (with operator.client.context), or the KUBECONFIG environment variable. kubectl config view
                --kubeconfig <file> shows how kubectl reads the same file.""",
                cause);
    }
}

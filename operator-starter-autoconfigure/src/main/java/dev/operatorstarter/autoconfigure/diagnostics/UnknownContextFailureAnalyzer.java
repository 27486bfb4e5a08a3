package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.client.config.ConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** The kubeconfig has no context of the name asked for. */
final class UnknownContextFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException.UnknownContext> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigException.UnknownContext cause) {
        String available = cause.available().isEmpty() ? "it defines no contexts at all"
                : "it defines " + String.join(", ", cause.available());
        return new FailureAnalysis("The Kubernetes context \"" + cause.context() + "\" does not exist: "
                + cause.getMessage() + ".",
                "Set operator.client.context to one of the kubeconfig's contexts (" + available
                        + "), or remove it to use the current context (kubectl config get-contexts lists them).",
                cause);
    }
}

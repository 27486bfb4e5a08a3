package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.client.config.ConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** No kubeconfig was found and the application does not run in a pod. */
final class MissingKubernetesConfigFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException.NotFound> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigException.NotFound cause) {
        return new FailureAnalysis("The operator has no cluster to connect to: " + cause.getMessage() + ".",
                """
                Point the application at a cluster, in one of these ways:
                \t- set operator.client.kubeconfig to a kubeconfig file (and operator.client.context to pick a context),
                \t- set the KUBECONFIG environment variable, or create ~/.kube/config (kubectl config view shows what you have),
                \t- run the application in a pod, where it uses the pod's service account,
                \t- or set operator.enabled=false to start without the operator runtime (then no bean may inject its
                \t  client, listers or reconcilers).""",
                cause);
    }
}

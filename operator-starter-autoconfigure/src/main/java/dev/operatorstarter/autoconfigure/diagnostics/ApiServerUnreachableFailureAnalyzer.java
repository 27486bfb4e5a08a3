package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.autoconfigure.ApiServerUnreachableException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** The API server did not answer the start-up check, or refused the credentials. */
final class ApiServerUnreachableFailureAnalyzer extends AbstractFailureAnalyzer<ApiServerUnreachableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ApiServerUnreachableException cause) {
        String action = cause.unauthenticated()
                ? "Renew the credentials of " + cause.source() + " (log in again, or a fresh token), or choose another "
                        + "context with operator.client.context."
                : "Check that " + cause.server() + " is the API server you mean and that it runs and is reachable from "
                        + "here: the kubeconfig's current context (or operator.client.context / operator.client.kubeconfig)"
                        + " decides where the operator connects. Locally, LocalKubernetes or @KubernetesTest start a "
                        + "server for you.";
        return new FailureAnalysis(cause.getMessage(), action, cause);
    }
}

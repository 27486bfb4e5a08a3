package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.client.config.ConfigException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A certificate authority, client certificate or key of the Kubernetes configuration cannot be read. */
final class UnreadableCertificateFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException.UnreadableCertificate> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigException.UnreadableCertificate cause) {
        return new FailureAnalysis("A certificate or key of the Kubernetes configuration cannot be used: "
                + cause.getMessage() + ".",
                "Fix the kubeconfig field named above: a *-data field must hold base64 of a PEM certificate or key, "
                        + "a file field must name a readable PEM file (relative paths resolve against the kubeconfig's "
                        + "folder), and the client key must belong to the client certificate.",
                cause);
    }
}

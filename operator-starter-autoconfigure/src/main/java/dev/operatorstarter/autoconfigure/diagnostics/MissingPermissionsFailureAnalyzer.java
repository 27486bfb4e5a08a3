package dev.operatorstarter.autoconfigure.diagnostics;

import dev.operatorstarter.autoconfigure.MissingPermissionsException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * The API server does not allow the operator something its code needs: every missing rule, by
 * namespace, as YAML to paste into the Role (or ClusterRole) bound to the operator's identity.
 */
final class MissingPermissionsFailureAnalyzer extends AbstractFailureAnalyzer<MissingPermissionsException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, MissingPermissionsException cause) {
        return new FailureAnalysis("The operator checked its permissions before starting its informers: "
                + cause.getMessage(), "Add the rules above to the Role (or ClusterRole) bound to " + cause.identity()
                + ". A chart built with operator-crd-maven-plugin's rbac goal has them in templates/_rbac-generated.tpl: "
                + "build again and upgrade the release. Anything the reconciler needs beyond its @Reconciler declaration "
                + "goes in @Permission on it. To start without the check: operator.permission-check.enabled=false.",
                cause);
    }
}

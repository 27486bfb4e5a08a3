package dev.operatorstarter.autoconfigure.wiring.unannotated;

import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.Secret;

/** A reconciler whose author forgot {@code @Reconciler}: no controller ever calls it. */
public class ForgottenSecretReconciler implements ReconcileHandler<Secret> {

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        return ReconcileResult.done();
    }
}

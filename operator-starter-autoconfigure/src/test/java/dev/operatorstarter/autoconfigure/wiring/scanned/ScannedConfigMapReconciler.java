package dev.operatorstarter.autoconfigure.wiring.scanned;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;

/** A reconciler as the docs write one: {@code @Reconciler} alone, found by component scanning. */
@Reconciler
public class ScannedConfigMapReconciler implements ReconcileHandler<ConfigMap> {

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        return ReconcileResult.done();
    }
}

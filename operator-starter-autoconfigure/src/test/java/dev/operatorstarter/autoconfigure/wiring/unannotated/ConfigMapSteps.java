package dev.operatorstarter.autoconfigure.wiring.unannotated;

import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;

/** Part of a ConfigMap reconciler's work, which that reconciler calls: not a reconciler of its own. */
public class ConfigMapSteps implements ReconcileHandler<ConfigMap> {

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        return ReconcileResult.done();
    }
}

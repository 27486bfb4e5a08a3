package dev.operatorstarter.autoconfigure.wiring.scanned;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.Secret;
import org.springframework.stereotype.Component;

/** A reconciler written before {@code @Reconciler} was a stereotype: {@code @Component} beside it is redundant. */
@Component
@Reconciler
public class AnnotatedTwiceSecretReconciler implements ReconcileHandler<Secret> {

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        return ReconcileResult.done();
    }
}

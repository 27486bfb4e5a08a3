package dev.operatorstarter.autoconfigure.wiring.unannotated;

import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;

/** A wrapper around any handler: its resource is a type variable, so it is nobody's reconciler. */
public class Logged<T> implements ReconcileHandler<T> {

    private final ReconcileHandler<T> delegate;

    public Logged(ReconcileHandler<T> delegate) {
        this.delegate = delegate;
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) throws Exception {
        return delegate.reconcile(request);
    }
}

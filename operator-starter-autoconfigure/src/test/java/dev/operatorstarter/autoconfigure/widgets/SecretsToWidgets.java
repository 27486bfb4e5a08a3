package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Collection;
import java.util.List;

/** A Secret named like a Widget tints it: a change to the Secret reconciles the Widget of the same name. */
public class SecretsToWidgets implements RequestMapper<Secret> {

    @Override
    public Collection<ReconcileRequest> map(Secret secret) {
        return List.of(new ReconcileRequest(secret.getMetadata().getNamespace(), secret.getMetadata().getName()));
    }
}

package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.RequestMapper;
import dev.operatorstarter.controller.Request;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Collection;
import java.util.List;

/** A Secret named like a Widget tints it: a change to the Secret reconciles the Widget of the same name. */
public class SecretsToWidgets implements RequestMapper<Secret> {

    @Override
    public Collection<Request> map(Secret secret) {
        return List.of(new Request(secret.getMetadata().getNamespace(), secret.getMetadata().getName()));
    }
}

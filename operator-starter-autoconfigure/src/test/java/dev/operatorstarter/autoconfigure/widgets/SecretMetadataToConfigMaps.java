package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.MetadataRequestMapper;
import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.Collection;
import java.util.List;

/** A change to a Secret reconciles the ConfigMap of the same name; only the Secrets' metadata is cached. */
public class SecretMetadataToConfigMaps implements MetadataRequestMapper<Secret> {

    @Override
    public Collection<ReconcileRequest> map(PartialObjectMetadata secret) {
        return List.of(new ReconcileRequest(secret.getMetadata().getNamespace(), secret.getMetadata().getName()));
    }
}

package ${package};

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Keeps one ConfigMap per ${kind}, holding its message, and reports it in the status. It owns
 * the ConfigMap: editing or deleting it reconciles the ${kind} again, and deleting the ${kind}
 * deletes it.
 */
@Reconciler(owns = ConfigMap.class)
public class ${kind}Reconciler implements ReconcileHandler<${kind}> {

    /** Who owns the fields this operator applies (server-side apply). */
    static final String FIELD_MANAGER = "${artifactId}";

    private final Lister<${kind}> resources;
    private final KubernetesClient client;

    public ${kind}Reconciler(Lister<${kind}> resources, KubernetesClient client) {
        this.resources = resources;
        this.client = client;
    }

    @Override
    public ReconcileResult reconcile(ReconcileRequest request) {
        Optional<${kind}> found = resources.namespace(request.namespace()).get(request.name());
        if (found.isEmpty()) {
            return ReconcileResult.done(); // deleted: the garbage collector removes the ConfigMap it owned
        }
        ${kind} resource = found.get();
        ConfigMap configMap = new ConfigMapBuilder()
                .withNewMetadata().withNamespace(request.namespace()).withName(configMapName(resource)).endMetadata()
                .withData(Map.of("message", Objects.requireNonNullElse(resource.getSpec().message(), "")))
                .build();
        OwnerReferences.setController(resource, configMap);
        client.coreV1().configMaps().inNamespace(request.namespace()).apply(configMap, PatchOptions.forceApply(FIELD_MANAGER));

        ${kind}Status status = new ${kind}Status(resource.getMetadata().getGeneration(), configMapName(resource));
        if (!status.equals(resource.getStatus())) {
            client.resources(${kind}.class).inNamespace(request.namespace())
                    .patchStatus(request.name(), PatchType.MERGE, Map.of("status", status), PatchOptions.none());
        }
        return ReconcileResult.done();
    }

    static String configMapName(${kind} resource) {
        return resource.getMetadata().getName() + "-${kind.toLowerCase()}";
    }
}

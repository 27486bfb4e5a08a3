package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** An operator that owns Secrets it labels, cached as metadata only. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class MetadataOwnerApplication {

    /** The names of the ConfigMaps reconciled, in order, marked when the reconcile saw the owned Secret changed. */
    public static final class Reconciled {
        public final List<String> names = new CopyOnWriteArrayList<>();
    }

    @Bean
    Reconciled reconciled() {
        return new Reconciled();
    }

    @Bean
    @Reconciler(ownsMetadata = Secret.class, ownedLabelSelector = "managed-by=metadata-owner")
    ReconcileHandler<ConfigMap> configMapReconciler(Reconciled reconciled,
            @Qualifier("secretMetadataLister") Lister<PartialObjectMetadata> secrets) {
        return request -> {
            // what this reconcile saw of the owned Secret's metadata
            boolean touched = secrets.namespace(request.namespace()).get("managed")
                    .map(secret -> secret.getMetadata().getAnnotations() != null
                            && secret.getMetadata().getAnnotations().containsKey("touched"))
                    .orElse(false);
            reconciled.names.add(request.name() + (touched ? " after the change" : ""));
            return ReconcileResult.done();
        };
    }
}

package dev.operatorstarter.autoconfigure.widgets;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.cache.ObjectReader;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * An operator that reconciles ConfigMaps, watches the metadata of Secrets of the same name, and
 * reads both through the {@link ObjectReader}: the ConfigMap from its cache, the Secret (whose
 * data no cache holds) from the API server.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class MetadataWatchApplication {

    /** What each reconcile read: the ConfigMap's name and the value in the Secret of that name. */
    public static final class Reconciled {
        public final List<String> seen = new CopyOnWriteArrayList<>();
    }

    @Bean
    Reconciled reconciled() {
        return new Reconciled();
    }

    @Bean
    @Reconciler(watchesMetadata = SecretMetadataToConfigMaps.class)
    ReconcileHandler<ConfigMap> configMapReconciler(ObjectReader reader, Reconciled reconciled) {
        return request -> {
            Optional<ConfigMap> configMap = reader.get(ConfigMap.class, request.namespace(), request.name());
            if (configMap.isEmpty()) {
                return ReconcileResult.done();
            }
            Optional<Secret> secret = reader.get(Secret.class, request.namespace(), request.name());
            reconciled.seen.add(request.name() + ": " + secret.map(MetadataWatchApplication::value).orElse("no secret"));
            return ReconcileResult.done();
        };
    }

    private static String value(Secret secret) {
        return new String(Base64.getDecoder().decode(secret.getData().get("value")), StandardCharsets.UTF_8);
    }
}

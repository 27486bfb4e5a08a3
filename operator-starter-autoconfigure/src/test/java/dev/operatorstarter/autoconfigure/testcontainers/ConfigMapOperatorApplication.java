package dev.operatorstarter.autoconfigure.testcontainers;

import dev.operatorstarter.autoconfigure.Reconciler;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/** An operator that notes every ConfigMap it reconciles: enough to prove where it connected. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class ConfigMapOperatorApplication {

    /** namespace/name of every ConfigMap reconciled. */
    public static final class Seen {
        public final Set<String> keys = ConcurrentHashMap.newKeySet();
    }

    @Bean
    Seen seen() {
        return new Seen();
    }

    @Bean
    @Reconciler
    ReconcileHandler<ConfigMap> configMapReconciler(Seen seen) {
        return (ReconcileRequest request) -> {
            seen.keys.add(request.key());
            return ReconcileResult.done();
        };
    }
}

package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.KubernetesConnectionDetails;
import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.KubeconfigLoader;
import java.nio.file.Path;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * {@link KubernetesConnectionDetails} from {@code operator.client.*}: the kubeconfig file named
 * by {@code operator.client.kubeconfig} (else {@code KUBECONFIG}, the pod's service account in a
 * pod, or {@code ~/.kube/config}, in controller-runtime's order: see
 * {@link KubeconfigLoader#fromEnvironment}), the context named by {@code operator.client.context}
 * (else the current one), and {@code operator.client.namespace} as the default namespace.
 */
public final class PropertiesKubernetesConnectionDetails implements KubernetesConnectionDetails {

    private final OperatorProperties.Client properties;
    private final Map<String, String> environment;

    PropertiesKubernetesConnectionDetails(OperatorProperties.Client properties, Map<String, String> environment) {
        this.properties = properties;
        this.environment = environment;
    }

    /** Reads the configuration each time it is called (the client reads it once, at start-up). */
    @Override
    public ClientConfig clientConfig() {
        Path kubeconfig = properties.kubeconfig();
        ClientConfig config = kubeconfig != null ? withEnvironmentProxy(kubeconfig, properties.context())
                : KubeconfigLoader.fromEnvironment(environment, properties.context());
        String namespace = properties.namespace();
        return namespace == null || namespace.isBlank() ? config : config.withNamespace(namespace);
    }

    private ClientConfig withEnvironmentProxy(Path kubeconfig, @Nullable String context) {
        // The same rules as without the property, with KUBECONFIG pointing at this one file.
        Map<String, String> pinned = new java.util.HashMap<>(environment);
        pinned.put("KUBECONFIG", kubeconfig.toString());
        if (!kubeconfig.toFile().exists()) {
            return KubeconfigLoader.load(kubeconfig, context); // names the missing file
        }
        return KubeconfigLoader.fromEnvironment(pinned, context);
    }
}

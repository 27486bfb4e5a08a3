package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.client.config.ClientConfig;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the Kubernetes API server is and how to authenticate to it. The auto-configuration reads
 * it from {@code operator.client.*}, the kubeconfig or the pod's service account
 * ({@code PropertiesKubernetesConnectionDetails}); a bean of this type replaces that, and so does
 * a {@code @ServiceConnection} K3s container in tests.
 */
public interface KubernetesConnectionDetails extends ConnectionDetails {

    /**
     * The client configuration: server URL, TLS settings, credentials, proxy and default namespace.
     *
     * @throws dev.operatorstarter.client.config.ConfigException naming the file, context and field
     *     when the configuration cannot be read
     */
    ClientConfig clientConfig();
}

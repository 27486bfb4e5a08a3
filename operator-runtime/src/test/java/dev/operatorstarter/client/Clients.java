package dev.operatorstarter.client;

import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.test.ClusterConnection;

/** Clients for the test cluster, configured the way users configure them: from a kubeconfig. */
final class Clients {

    private Clients() {
    }

    static KubernetesClient admin(ClusterConnection connection) {
        return KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    static KubernetesClient admin(ClusterConnection connection, ClientOptions options) {
        return KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null), options);
    }
}

package dev.operatorstarter.client;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.discovery.DiscoveryClient;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.RestClient;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The entry point: typed clients for any model class, dynamic clients for any resource,
 * discovery, the raw REST client, and clientset-style shortcuts for every built-in group version
 * ({@link Clientset}).
 *
 * <pre>{@code
 * try (KubernetesClient client = KubernetesClient.create(ClientConfig.load())) {
 *     ConfigMap settings = client.coreV1().configMaps().inNamespace("default").get("settings");
 * }
 * }</pre>
 *
 * <p>Thread-safe; create one per application and share it. {@link #close()} releases the
 * connection pool.
 */
public interface KubernetesClient extends AutoCloseable {

    /** A client with the default {@link ClientOptions}. */
    static KubernetesClient create(ClientConfig config) {
        return create(config, ClientOptions.defaults());
    }

    static KubernetesClient create(ClientConfig config, ClientOptions options) {
        return new RestKubernetesClient(RestClient.create(config, options));
    }

    /** Where this client connects. */
    ClientConfig config();

    /** The REST client underneath, for requests the typed clients do not cover. */
    RestClient rest();

    /** The typed client of a model class (fabric8 model or a custom resource class with @Group/@Version). */
    <T extends HasMetadata> ResourceClient<T> resources(Class<T> type);

    /** The typed client of a resource described explicitly. */
    <T extends HasMetadata> ResourceClient<T> resources(ResourceType<T> type);

    /**
     * A dynamic client for any resource, objects as {@link GenericKubernetesResource}; whether it
     * is namespaced and its kind come from discovery.
     *
     * @throws dev.operatorstarter.client.rest.KubernetesClientException if the server does not serve it
     */
    ResourceClient<GenericKubernetesResource> dynamic(GroupVersionResource resource);

    /** A dynamic client for the resource serving {@code kind} in {@code apiVersion}, found by discovery. */
    ResourceClient<GenericKubernetesResource> dynamic(String apiVersion, String kind);

    /** Discovery, cached, with a REST mapper. */
    DiscoveryClient discovery();

    default Clientset.CoreV1 coreV1() {
        return () -> this;
    }

    default Clientset.AdmissionregistrationV1 admissionregistrationV1() {
        return () -> this;
    }

    default Clientset.ApiextensionsV1 apiextensionsV1() {
        return () -> this;
    }

    default Clientset.ApiregistrationV1 apiregistrationV1() {
        return () -> this;
    }

    default Clientset.AppsV1 appsV1() {
        return () -> this;
    }

    default Clientset.AuthenticationV1 authenticationV1() {
        return () -> this;
    }

    default Clientset.AuthorizationV1 authorizationV1() {
        return () -> this;
    }

    default Clientset.AutoscalingV1 autoscalingV1() {
        return () -> this;
    }

    default Clientset.AutoscalingV2 autoscalingV2() {
        return () -> this;
    }

    default Clientset.BatchV1 batchV1() {
        return () -> this;
    }

    default Clientset.CertificatesV1 certificatesV1() {
        return () -> this;
    }

    default Clientset.CoordinationV1 coordinationV1() {
        return () -> this;
    }

    default Clientset.DiscoveryV1 discoveryV1() {
        return () -> this;
    }

    default Clientset.EventsV1 eventsV1() {
        return () -> this;
    }

    default Clientset.FlowcontrolV1 flowcontrolV1() {
        return () -> this;
    }

    default Clientset.NetworkingV1 networkingV1() {
        return () -> this;
    }

    default Clientset.NodeV1 nodeV1() {
        return () -> this;
    }

    default Clientset.PolicyV1 policyV1() {
        return () -> this;
    }

    default Clientset.RbacV1 rbacV1() {
        return () -> this;
    }

    default Clientset.ResourceV1 resourceV1() {
        return () -> this;
    }

    default Clientset.SchedulingV1 schedulingV1() {
        return () -> this;
    }

    default Clientset.StorageV1 storageV1() {
        return () -> this;
    }

    default Clientset.StoragemigrationV1 storagemigrationV1() {
        return () -> this;
    }

    /** Releases the connection pool; requests in flight fail. */
    @Override
    void close();
}

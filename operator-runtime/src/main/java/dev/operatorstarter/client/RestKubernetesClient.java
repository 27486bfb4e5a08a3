package dev.operatorstarter.client;

import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.discovery.ApiResource;
import dev.operatorstarter.client.discovery.DiscoveryClient;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.RestClient;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;

/** {@link KubernetesClient} over one {@link RestClient}. */
final class RestKubernetesClient implements KubernetesClient {

    private final RestClient rest;
    private final DiscoveryClient discovery;

    RestKubernetesClient(RestClient rest) {
        this.rest = rest;
        this.discovery = DiscoveryClient.create(rest);
    }

    @Override
    public ClientConfig config() {
        return rest.config();
    }

    @Override
    public RestClient rest() {
        return rest;
    }

    @Override
    public <T extends HasMetadata> ResourceClient<T> resources(Class<T> type) {
        return resources(ResourceType.of(type));
    }

    @Override
    public <T extends HasMetadata> ResourceClient<T> resources(ResourceType<T> type) {
        return new RestResourceClient<>(rest, type, null);
    }

    @Override
    public ResourceClient<GenericKubernetesResource> dynamic(GroupVersionResource resource) {
        ApiResource found = discovery.findResource(resource.group(), resource.version(), resource.resource())
                .orElseThrow(() -> new KubernetesClientException("the server does not serve " + resource
                        + " (checked discovery after a refresh)"));
        return resources(ResourceType.generic(resource, found.kind(), found.namespaced()));
    }

    @Override
    public ResourceClient<GenericKubernetesResource> dynamic(String apiVersion, String kind) {
        ApiResource found = discovery.findKind(apiVersion, kind)
                .orElseThrow(() -> new KubernetesClientException("the server has no resource for kind " + kind + " in "
                        + apiVersion + " (checked discovery after a refresh)"));
        return resources(ResourceType.generic(new GroupVersionResource(found.group(), found.version(), found.resource()),
                found.kind(), found.namespaced()));
    }

    @Override
    public DiscoveryClient discovery() {
        return discovery;
    }

    @Override
    public void close() {
        rest.close();
    }
}

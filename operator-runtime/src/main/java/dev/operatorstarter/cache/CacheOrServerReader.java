package dev.operatorstarter.cache;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link ObjectReader} that answers from the factory's informers when one covers the read, and
 * from the API server otherwise (see the interface for what "covers" means).
 */
final class CacheOrServerReader implements ObjectReader {

    private static final String GET = "get";
    private static final String LIST = "list";

    private final SharedInformerFactory informers;
    private final ReaderOptions options;
    private final ClassValue<ResourceType<?>> types = new ClassValue<>() {
        @Override
        protected ResourceType<?> computeValue(Class<?> type) {
            return ResourceType.of(type.asSubclass(HasMetadata.class));
        }
    };

    CacheOrServerReader(SharedInformerFactory informers, ReaderOptions options) {
        this.informers = Objects.requireNonNull(informers, "informers");
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
        Objects.requireNonNull(name, "name");
        ResourceType<T> resource = resourceOf(type, namespace);
        if (resource.namespaced() && namespace.isEmpty()) {
            throw new IllegalArgumentException(resource + ": a get needs a namespace");
        }
        String resourceName = resource.groupVersionResource().groupResource();
        boolean absentForSure = false;
        for (Map.Entry<InformerScope, SharedIndexInformer<T>> cache : caches(resource, namespace)) {
            Lister<T> lister = cache.getValue().lister();
            Optional<T> cached = namespace.isEmpty() ? lister.get(name) : lister.namespace(namespace).get(name);
            if (cached.isPresent()) {
                options.metrics().read(resourceName, GET, Source.CACHE);
                return cached;
            }
            // a cache without selectors would hold it if it existed; a selected one may have left it out
            absentForSure |= cache.getKey().labelSelector().isEmpty() && cache.getKey().fieldSelector().isEmpty();
        }
        if (absentForSure) {
            options.metrics().read(resourceName, GET, Source.CACHE);
            return Optional.empty();
        }
        options.metrics().read(resourceName, GET, Source.API);
        return server(resource, namespace).find(name);
    }

    @Override
    public <T extends HasMetadata> List<T> list(Class<T> type, String namespace, LabelSelector selector) {
        Objects.requireNonNull(selector, "selector");
        ResourceType<T> resource = resourceOf(type, namespace);
        String resourceName = resource.groupVersionResource().groupResource();
        for (Map.Entry<InformerScope, SharedIndexInformer<T>> cache : caches(resource, namespace)) {
            InformerScope scope = cache.getKey();
            if (scope.fieldSelector().isEmpty()
                    && selector.hasEveryRequirementOf(LabelSelector.parse(scope.labelSelector()))) {
                options.metrics().read(resourceName, LIST, Source.CACHE);
                Lister<T> lister = cache.getValue().lister();
                return Collections.unmodifiableList(namespace.isEmpty() ? lister.list(selector)
                        : lister.namespace(namespace).list(selector));
            }
        }
        options.metrics().read(resourceName, LIST, Source.API);
        ListOptions query = ListOptions.builder().labelSelector(selector.isEverything() ? null : selector.toString())
                .build();
        try (Stream<T> all = server(resource, namespace).listAll(query)) {
            return all.toList();
        }
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> ResourceType<T> resourceOf(Class<T> type, String namespace) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(namespace, "namespace");
        ResourceType<T> resource = (ResourceType<T>) types.get(type);
        if (!resource.namespaced() && !namespace.isEmpty()) {
            throw new IllegalArgumentException(resource + ": read a cluster-scoped resource with namespace \"\", not \""
                    + namespace + "\"");
        }
        return resource;
    }

    /**
     * The synced informers of {@code resource} whose namespace covers {@code namespace} ("" covers
     * every namespace, and only "" covers a read of all); none when the resource is uncached.
     */
    private <T extends HasMetadata> List<Map.Entry<InformerScope, SharedIndexInformer<T>>> caches(
            ResourceType<T> resource, String namespace) {
        if (options.uncached().contains(resource.groupVersionResource().groupResource())) {
            return List.of();
        }
        return informers.running(resource).entrySet().stream()
                .filter(cache -> cache.getKey().namespace().isEmpty() || cache.getKey().namespace().equals(namespace))
                .filter(cache -> cache.getValue().hasSynced())
                .toList();
    }

    private <T extends HasMetadata> ResourceClient<T> server(ResourceType<T> resource, String namespace) {
        ResourceClient<T> all = informers.client().resources(resource);
        return namespace.isEmpty() ? all : all.inNamespace(namespace);
    }
}

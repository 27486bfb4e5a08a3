package dev.operatorstarter.cache;

import dev.operatorstarter.cache.SharedInformerFactory.Scoped;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Collections;
import java.util.List;
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

    /** What a read of one class needs, worked out on the first read of that class. */
    private record Target<T extends HasMetadata>(ResourceType<T> type, GroupVersionResource resource, String name,
            boolean uncached) {
    }

    private final SharedInformerFactory informers;
    private final ReaderOptions options;
    private final ClassValue<Target<?>> targets = new ClassValue<>() {
        @Override
        protected Target<?> computeValue(Class<?> type) {
            ResourceType<?> resource = ResourceType.of(type.asSubclass(HasMetadata.class));
            String name = resource.groupVersionResource().groupResource();
            return new Target<>(resource, resource.groupVersionResource(), name, options.uncached().contains(name));
        }
    };

    CacheOrServerReader(SharedInformerFactory informers, ReaderOptions options) {
        this.informers = Objects.requireNonNull(informers, "informers");
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public <T extends HasMetadata> Optional<T> get(Class<T> type, String namespace, String name) {
        Objects.requireNonNull(name, "name");
        Target<T> target = targetOf(type, namespace);
        if (target.type().namespaced() && namespace.isEmpty()) {
            throw new IllegalArgumentException(target.type() + ": a get needs a namespace");
        }
        boolean absentForSure = false;
        for (Scoped<T> cache : caches(target)) {
            if (!covers(cache, target, namespace)) {
                continue;
            }
            Lister<T> lister = cache.informer().lister();
            Optional<T> cached = namespace.isEmpty() ? lister.get(name) : lister.namespace(namespace).get(name);
            if (cached.isPresent()) {
                options.metrics().read(target.name(), GET, Source.CACHE);
                return cached;
            }
            // a cache without selectors would hold it if it existed; a selected one may have left it out
            absentForSure |= cache.scope().labelSelector().isEmpty() && cache.scope().fieldSelector().isEmpty();
        }
        if (absentForSure) {
            options.metrics().read(target.name(), GET, Source.CACHE);
            return Optional.empty();
        }
        options.metrics().read(target.name(), GET, Source.API);
        return server(target, namespace).find(name);
    }

    @Override
    public <T extends HasMetadata> List<T> list(Class<T> type, String namespace, LabelSelector selector) {
        Objects.requireNonNull(selector, "selector");
        Target<T> target = targetOf(type, namespace);
        for (Scoped<T> cache : caches(target)) {
            if (covers(cache, target, namespace) && cache.scope().fieldSelector().isEmpty()
                    && selector.hasEveryRequirementOf(cache.labelSelector())) {
                options.metrics().read(target.name(), LIST, Source.CACHE);
                Lister<T> lister = cache.informer().lister();
                return Collections.unmodifiableList(namespace.isEmpty() ? lister.list(selector)
                        : lister.namespace(namespace).list(selector));
            }
        }
        options.metrics().read(target.name(), LIST, Source.API);
        ListOptions query = ListOptions.builder().labelSelector(selector.isEverything() ? null : selector.toString())
                .build();
        try (Stream<T> all = server(target, namespace).listAll(query)) {
            return all.toList();
        }
    }

    @SuppressWarnings("unchecked")
    private <T extends HasMetadata> Target<T> targetOf(Class<T> type, String namespace) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(namespace, "namespace");
        Target<T> target = (Target<T>) targets.get(type);
        if (!target.type().namespaced() && !namespace.isEmpty()) {
            throw new IllegalArgumentException(target.type() + ": read a cluster-scoped resource with namespace \"\", "
                    + "not \"" + namespace + "\"");
        }
        return target;
    }

    /** The informers of {@code target}'s class; none when its resource is uncached. */
    private <T extends HasMetadata> List<Scoped<T>> caches(Target<T> target) {
        return target.uncached() ? List.of() : informers.informersOf(target.type().javaClass());
    }

    /**
     * Whether {@code cache} may answer a read of {@code target} in {@code namespace}: it informs on
     * that resource, runs, has synced, and its namespace is the read's or all ("" covers every
     * namespace, and only "" covers a read of all).
     */
    private static <T extends HasMetadata> boolean covers(Scoped<T> cache, Target<T> target, String namespace) {
        String scope = cache.scope().namespace();
        return cache.resource().equals(target.resource()) && (scope.isEmpty() || scope.equals(namespace))
                && !cache.informer().isStopped() && cache.informer().hasSynced();
    }

    private <T extends HasMetadata> ResourceClient<T> server(Target<T> target, String namespace) {
        ResourceClient<T> all = informers.client().resources(target.type());
        return namespace.isEmpty() ? all : all.inNamespace(namespace);
    }
}

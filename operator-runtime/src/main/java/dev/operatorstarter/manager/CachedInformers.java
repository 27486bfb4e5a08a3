package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.HashMap;

/** The selectors of each resource's informers, and the informers the manager's controllers cache it in (for listers over all of them). Thread-safe. */
final class CachedInformers {

    private final Map<String, InformerScope> selectors;
    private final Map<String, Set<SharedIndexInformer<?>>> full = new HashMap<>();
    private final Map<String, Set<SharedIndexInformer<?>>> metadata = new HashMap<>();

    CachedInformers(Map<String, InformerScope> selectors) {
        this.selectors = Map.copyOf(selectors);
    }

    /** The label and field selectors {@link ManagerBuilder#selectors} gave for {@code type}'s informers; all when none. */
    InformerScope selectors(ResourceType<?> type) {
        return selectors.getOrDefault(key(type), InformerScope.all());
    }

    synchronized void full(ResourceType<?> type, SharedIndexInformer<?> informer) {
        full.computeIfAbsent(key(type), k -> new LinkedHashSet<>()).add(informer);
    }

    synchronized void metadata(ResourceType<?> type, SharedIndexInformer<PartialObjectMetadata> informer) {
        metadata.computeIfAbsent(key(type), k -> new LinkedHashSet<>()).add(informer);
    }

    @SuppressWarnings("unchecked")
    synchronized <T extends HasMetadata> Lister<T> lister(Class<T> type) {
        return (Lister<T>) union(full, ResourceType.of(type), type.getName());
    }

    @SuppressWarnings("unchecked")
    synchronized Lister<PartialObjectMetadata> metadataLister(Class<? extends HasMetadata> type) {
        return (Lister<PartialObjectMetadata>) union(metadata, ResourceType.of(type), "the metadata of " + type.getName());
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private static Lister<?> union(Map<String, Set<SharedIndexInformer<?>>> byType, ResourceType<?> type, String what) {
        Set<SharedIndexInformer<?>> informers = byType.getOrDefault(key(type), Set.of());
        if (informers.isEmpty()) {
            throw new IllegalStateException("no controller of the manager caches " + what);
        }
        List<Lister> listers = informers.stream().map(informer -> (Lister) informer.lister()).toList();
        return Lister.union((List) listers);
    }

    private static String key(ResourceType<?> type) {
        return type.groupVersionResource().groupResource();
    }
}

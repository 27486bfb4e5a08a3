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
import java.util.HashMap;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

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

    /** Counts the informers recorded, so a deferred lister knows when to look its caches up again. */
    private volatile int version;

    synchronized void full(ResourceType<?> type, SharedIndexInformer<?> informer) {
        version++;
        full.computeIfAbsent(key(type), k -> new LinkedHashSet<>()).add(informer);
    }

    synchronized void metadata(ResourceType<?> type, SharedIndexInformer<PartialObjectMetadata> informer) {
        version++;
        metadata.computeIfAbsent(key(type), k -> new LinkedHashSet<>()).add(informer);
    }

    @SuppressWarnings("unchecked")
    <T extends HasMetadata> Lister<T> lister(Class<T> type) {
        ResourceType<T> resource = ResourceType.of(type);
        return new DeferredLister<>(memoized(() -> (Lister<T>) union(full, resource, type.getName())));
    }

    @SuppressWarnings("unchecked")
    Lister<PartialObjectMetadata> metadataLister(Class<? extends HasMetadata> type) {
        ResourceType<?> resource = ResourceType.of(type);
        return new DeferredLister<>(memoized(() -> (Lister<PartialObjectMetadata>) union(metadata, resource,
                "the metadata of " + type.getName())));
    }

    /** An answer, and the {@link #version} it was looked up at. */
    private record Memo<L>(int version, L answer) {
    }

    /** {@code lookup}'s answer, looked up again only after an informer was recorded. */
    private <L> Supplier<L> memoized(Supplier<L> lookup) {
        return new Supplier<>() {
            private volatile @Nullable Memo<L> last;

            @Override
            public L get() {
                int now = version;
                Memo<L> memo = last;
                if (memo == null || memo.version() != now) {
                    memo = new Memo<>(now, lookup.get());
                    last = memo;
                }
                return memo.answer();
            }
        };
    }

    @SuppressWarnings({ "unchecked", "rawtypes" })
    private synchronized Lister<?> union(Map<String, Set<SharedIndexInformer<?>>> byType, ResourceType<?> type, String what) {
        Set<SharedIndexInformer<?>> informers = byType.getOrDefault(key(type), Set.of());
        if (informers.isEmpty()) {
            throw new IllegalStateException("no controller of the manager caches " + what + " (yet): build one "
                    + "that does with manager.controller(...).reconcile(...) before reading");
        }
        List<Lister> listers = informers.stream().map(informer -> (Lister) informer.lister()).toList();
        return Lister.union((List) listers);
    }

    /** @throws IllegalStateException when selectors were given for a resource no controller caches (a misspelt name) */
    synchronized void requireSelectorsUsed() {
        Set<String> cached = new TreeSet<>(full.keySet());
        cached.addAll(metadata.keySet());
        selectors.keySet().stream().filter(name -> !cached.contains(name)).sorted().findFirst().ifPresent(name -> {
            throw new IllegalStateException("selectors were given for '" + name + "', which no controller of the "
                    + "manager caches; the names are plural[.group]: " + (cached.isEmpty() ? "(none)" : String.join(", ", cached)));
        });
    }

    private static String key(ResourceType<?> type) {
        return type.groupVersionResource().groupResource();
    }
}

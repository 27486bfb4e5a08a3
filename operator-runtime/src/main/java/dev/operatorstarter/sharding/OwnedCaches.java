package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.Indexer;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.GroupVersionResource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/** A sharded controller's caches of owned objects, by resource, for the wait for moved-in children. */
final class OwnedCaches {

    private OwnedCaches() {
    }

    /** {@code owned}'s caches by {@code plural[.group]}, each indexed by owner; checked against what {@code resource} owns. */
    static Map<String, List<Indexer<?>>> byResource(SharedInformerFactory informers, ShardedResource<?> resource,
            List<? extends SharedIndexInformer<?>> owned) {
        Set<String> declared = resource.owned().stream().map(o -> o.resource().groupResource())
                .collect(Collectors.toCollection(TreeSet::new));
        Map<String, List<Indexer<?>>> byResource = new LinkedHashMap<>();
        for (SharedIndexInformer<?> informer : owned) {
            GroupVersionResource cached = informers.resourceOf(informer).orElseThrow(() -> new IllegalArgumentException(
                    "the owned informer " + informer.name() + " was not made on the sharding's informer factory"));
            if (!declared.contains(cached.groupResource())) {
                throw new IllegalArgumentException("the owned informer " + informer.name() + " caches "
                        + cached.groupResource() + ", which " + resource.resource() + " does not own: declare it with "
                        + "ShardedResource.owning, so the assigner moves those objects with their owner");
            }
            resource.indexOwners(informer);
            byResource.computeIfAbsent(cached.groupResource(), r -> new ArrayList<>()).add(informer.indexer());
        }
        Set<String> missing = new TreeSet<>(declared);
        missing.removeAll(byResource.keySet());
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(resource.resource() + " owns " + missing + ", for which no owned "
                    + "informer was given: a moved-in object would wait for those children until the arrival timeout");
        }
        return byResource;
    }

    /** How many objects {@code caches} hold whose owner is {@code ownerKey}, each counted once. */
    static int children(@Nullable List<Indexer<?>> caches, String ownerIndex, String ownerKey) {
        if (caches == null) {
            return 0;
        }
        Set<String> keys = new HashSet<>();
        caches.forEach(cache -> keys.addAll(cache.indexKeys(ownerIndex, ownerKey)));
        return keys.size();
    }
}

package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.IndexFunction;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the assigner watches for one sharded controller: its primary resource over the controller's
 * <em>unsharded</em> scopes (its namespaces and label selectors, without the shard's requirement),
 * and each resource it owns, over its scopes. The assigner gives every primary object in these
 * scopes a shard, and the objects it controls (an owner reference with {@code controller: true}
 * of the primary's kind) follow their owner: they are keyed by the owner's {@code namespace/name}.
 *
 * @param type the primary resource
 * @param scopes where its objects are; at least one ({@link InformerScope#all()} for every object)
 * @param owned the resources it owns, each with its scopes; may be empty
 * @param <T> the primary resource's class
 */
public record ShardedResource<T extends HasMetadata>(ResourceType<T> type, List<InformerScope> scopes,
        List<Owned> owned) {

    /** The prefix of the owner index's name; the primary's {@code plural[.group]} follows. */
    static final String OWNER_INDEX_PREFIX = ShardLabels.DOMAIN + "/owner:";

    public ShardedResource {
        Objects.requireNonNull(type, "type");
        scopes = requireScopes(scopes, type.groupVersionResource());
        owned = List.copyOf(Objects.requireNonNull(owned, "owned"));
    }

    /**
     * A resource the primary owns.
     *
     * @param resource the owned resource
     * @param scopes where its objects are; at least one
     */
    public record Owned(GroupVersionResource resource, List<InformerScope> scopes) {

        public Owned {
            Objects.requireNonNull(resource, "resource");
            scopes = requireScopes(scopes, resource);
        }
    }

    /** The primary {@code type} in {@code scopes}, owning nothing yet. */
    public static <T extends HasMetadata> ShardedResource<T> of(ResourceType<T> type, List<InformerScope> scopes) {
        return new ShardedResource<>(type, scopes, List.of());
    }

    /** This resource, owning {@code resource} in {@code scopes} too. */
    public ShardedResource<T> owning(GroupVersionResource resource, List<InformerScope> scopes) {
        List<Owned> more = new ArrayList<>(owned);
        more.add(new Owned(resource, scopes));
        return new ShardedResource<>(type, this.scopes, more);
    }

    /** {@code plural[.group]} of the primary, as metrics and logs name it. */
    String resource() {
        return type.groupVersionResource().groupResource();
    }

    /**
     * The name of the index, on an owned resource's cache, of each object's controlling owner of
     * this primary's kind ({@link #ownerKeys}); one per primary, so that caches owned by several
     * sharded controllers can hold each one's index.
     */
    String ownerIndex() {
        return OWNER_INDEX_PREFIX + resource();
    }

    /**
     * Indexes an owned object by the key ({@code namespace/name}, or {@code name} when the primary
     * is cluster-scoped) of its controlling owner of the primary's kind: none when it has none. The
     * key is the one its owner is assigned by.
     */
    <O extends HasMetadata> IndexFunction<O> ownerKeys() {
        return object -> OwnerReferences.controllerRequests(object, type).stream().map(ReconcileRequest::key).toList();
    }

    /** Adds the owner index ({@link #ownerIndex}) to {@code owned}'s cache, unless it has it already. */
    <O extends HasMetadata> void indexOwners(SharedIndexInformer<O> owned) {
        if (!owned.indexer().indexNames().contains(ownerIndex())) {
            owned.addIndexers(Map.of(ownerIndex(), ownerKeys()));
        }
    }

    private static List<InformerScope> requireScopes(List<InformerScope> scopes, GroupVersionResource resource) {
        List<InformerScope> copy = List.copyOf(Objects.requireNonNull(scopes, "scopes"));
        if (copy.isEmpty()) {
            throw new IllegalArgumentException("the scopes of " + resource + " must not be empty (InformerScope.all() "
                    + "for every object)");
        }
        return copy;
    }
}

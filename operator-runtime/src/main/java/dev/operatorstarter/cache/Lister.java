package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;

/**
 * Reads an informer's cache (client-go's generated listers, for any type). Reads never call the
 * API server: they see what the informer has applied so far, which may lag the server a little.
 * Returned objects are shared with every other reader: never change them.
 */
public interface Lister<T extends HasMetadata> {

    /** A lister over {@code indexer} (which should have the namespace index, as informers' do). */
    static <T extends HasMetadata> Lister<T> of(Indexer<T> indexer) {
        return new IndexLister<>(indexer, null);
    }

    /**
     * Reads several caches of one resource as one (for example one informer per watched
     * namespace); an object cached by more than one of them appears once.
     */
    static <T extends HasMetadata> Lister<T> union(List<Lister<T>> listers) {
        return listers.size() == 1 ? listers.get(0) : new UnionLister<>(listers);
    }

    /** Every cached object. */
    List<T> list();

    /** The cached objects whose labels match {@code selector}. */
    List<T> list(LabelSelector selector);

    /** The cluster-scoped object {@code name} (for namespaced types use {@link #namespace}). */
    Optional<T> get(String name);

    /** The objects of one namespace. */
    NamespaceLister<T> namespace(String namespace);

    /** Reads the cached objects of one namespace. */
    interface NamespaceLister<T extends HasMetadata> {

        /** Every cached object in this namespace. */
        List<T> list();

        /** The objects in this namespace whose labels match {@code selector}. */
        List<T> list(LabelSelector selector);

        /** The object {@code name} in this namespace. */
        Optional<T> get(String name);
    }
}

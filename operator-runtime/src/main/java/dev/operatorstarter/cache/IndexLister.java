package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** {@link Lister} and namespace lister on an {@link Indexer}, using its namespace index when it has one. */
final class IndexLister<T extends HasMetadata> implements Lister<T>, Lister.NamespaceLister<T> {

    private final Indexer<T> indexer;
    private final @Nullable String namespace;

    IndexLister(Indexer<T> indexer, @Nullable String namespace) {
        this.indexer = Objects.requireNonNull(indexer, "indexer");
        this.namespace = namespace;
    }

    @Override
    public List<T> list() {
        return list(LabelSelector.everything());
    }

    @Override
    public List<T> list(LabelSelector selector) {
        List<T> candidates;
        if (namespace == null) {
            candidates = indexer.list();
        } else if (indexer.indexNames().contains(IndexFunction.NAMESPACE)) {
            candidates = indexer.byIndex(IndexFunction.NAMESPACE, namespace);
        } else {
            candidates = new ArrayList<>();
            for (T object : indexer.list()) {
                if (namespace.equals(object.getMetadata().getNamespace())) {
                    candidates.add(object);
                }
            }
        }
        if (selector.isEverything()) {
            return candidates;
        }
        List<T> matching = new ArrayList<>();
        for (T object : candidates) {
            if (selector.matches(object.getMetadata().getLabels())) {
                matching.add(object);
            }
        }
        return matching;
    }

    @Override
    public Optional<T> get(String name) {
        return indexer.get(Keys.of(namespace, name));
    }

    @Override
    public NamespaceLister<T> namespace(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        if (namespace.isEmpty()) {
            throw new IllegalArgumentException("namespace must not be empty; use the lister itself for all namespaces");
        }
        return new IndexLister<>(indexer, namespace);
    }
}

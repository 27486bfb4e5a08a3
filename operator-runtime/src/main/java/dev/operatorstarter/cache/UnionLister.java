package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Reads several caches of one resource as one (for example one informer per watched namespace).
 * An object cached by more than one of them appears once.
 */
final class UnionLister<T extends HasMetadata> implements Lister<T> {

    private final List<Lister<T>> listers;

    UnionLister(List<Lister<T>> listers) {
        this.listers = List.copyOf(listers);
    }

    @Override
    public List<T> list() {
        return merge(Lister::list);
    }

    @Override
    public List<T> list(LabelSelector selector) {
        return merge(lister -> lister.list(selector));
    }

    @Override
    public Optional<T> get(String name) {
        return listers.stream().map(lister -> lister.get(name)).flatMap(Optional::stream).findFirst();
    }

    @Override
    public NamespaceLister<T> namespace(String namespace) {
        List<NamespaceLister<T>> parts = listers.stream().map(lister -> lister.namespace(namespace)).toList();
        return new NamespaceLister<>() {
            @Override
            public List<T> list() {
                return distinct(parts, NamespaceLister::list);
            }

            @Override
            public List<T> list(LabelSelector selector) {
                return distinct(parts, part -> part.list(selector));
            }

            @Override
            public Optional<T> get(String name) {
                return parts.stream().map(part -> part.get(name)).flatMap(Optional::stream).findFirst();
            }
        };
    }

    private List<T> merge(Function<Lister<T>, List<T>> read) {
        return distinct(listers, read);
    }

    private static <S, T extends HasMetadata> List<T> distinct(List<S> sources, Function<S, List<T>> read) {
        Set<String> seen = new HashSet<>();
        List<T> all = new ArrayList<>();
        for (S source : sources) {
            for (T object : read.apply(source)) {
                if (seen.add(object.getMetadata().getNamespace() + "/" + object.getMetadata().getName())) {
                    all.add(object);
                }
            }
        }
        return all;
    }
}

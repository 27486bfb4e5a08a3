package dev.operatorstarter.manager;

import dev.operatorstarter.cache.LabelSelector;
import dev.operatorstarter.cache.Lister;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A lister over the caches the manager's controllers have for one resource, looked up at each
 * read: so a handler can be given its listers before its controller is built.
 */
final class DeferredLister<T extends HasMetadata> implements Lister<T> {

    private final Supplier<Lister<T>> current;

    DeferredLister(Supplier<Lister<T>> current) {
        this.current = current;
    }

    @Override
    public List<T> list() {
        return current.get().list();
    }

    @Override
    public List<T> list(LabelSelector selector) {
        return current.get().list(selector);
    }

    @Override
    public Optional<T> get(String name) {
        return current.get().get(name);
    }

    @Override
    public NamespaceLister<T> namespace(String namespace) {
        return new NamespaceLister<>() {
            @Override
            public List<T> list() {
                return current.get().namespace(namespace).list();
            }

            @Override
            public List<T> list(LabelSelector selector) {
                return current.get().namespace(namespace).list(selector);
            }

            @Override
            public Optional<T> get(String name) {
                return current.get().namespace(namespace).get(name);
            }
        };
    }
}

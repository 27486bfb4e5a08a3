package dev.operatorstarter.cache;

import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * The two calls a {@link Reflector} makes: list and watch one collection (client-go's
 * {@code ListerWatcher}). {@link #of} builds one over a typed or dynamic {@link ResourceClient},
 * already scoped to a namespace and selectors.
 */
public interface ListerWatcher<T> {

    /** One list request (a page when {@code options} has a limit). */
    ResourceList<T> list(ListOptions options);

    /** A watch; the returned Flux starts the request when subscribed. */
    Flux<WatchEvent<T>> watch(ListOptions options);

    /**
     * Lists and watches {@code client}'s objects that match the selectors (null: no selector).
     * The selectors are added to every request, so they cannot be forgotten on a relist.
     */
    static <T extends HasMetadata> ListerWatcher<T> of(ResourceClient<T> client, @Nullable String labelSelector,
            @Nullable String fieldSelector) {
        return selecting(new ListerWatcher<>() {
            @Override
            public ResourceList<T> list(ListOptions options) {
                return client.list(options);
            }

            @Override
            public Flux<WatchEvent<T>> watch(ListOptions options) {
                return client.watch(options);
            }

            @Override
            public String toString() {
                return client.type().toString();
            }
        }, labelSelector, fieldSelector);
    }

    /**
     * {@code inner}, with the selectors (null: none) set on every list and watch, so they cannot
     * be forgotten on a relist.
     */
    static <T> ListerWatcher<T> selecting(ListerWatcher<T> inner, @Nullable String labelSelector,
            @Nullable String fieldSelector) {
        if (labelSelector == null && fieldSelector == null) {
            return inner;
        }
        return new ListerWatcher<>() {
            @Override
            public ResourceList<T> list(ListOptions options) {
                return inner.list(select(options));
            }

            @Override
            public Flux<WatchEvent<T>> watch(ListOptions options) {
                return inner.watch(select(options));
            }

            private ListOptions select(ListOptions options) {
                return options.toBuilder().labelSelector(labelSelector).fieldSelector(fieldSelector).build();
            }

            @Override
            public String toString() {
                return inner.toString();
            }
        };
    }
}

package dev.operatorstarter.controller;

import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;

/** A {@link ResourceClient} that tells a {@link WriteTracker} of every successful write, and of the type written. */
final class TrackingResourceClient<T extends HasMetadata> implements ResourceClient<T> {

    private final ResourceClient<T> delegate;
    private final WriteTracker tracker;

    TrackingResourceClient(ResourceClient<T> delegate, WriteTracker tracker) {
        this.delegate = delegate;
        this.tracker = tracker;
    }

    private T track(T written) {
        if (written != null) {
            tracker.written(delegate.type(), written);
        }
        return written;
    }

    @Override
    public ResourceType<T> type() {
        return delegate.type();
    }

    @Override
    public ResourceClient<T> inNamespace(String namespace) {
        return new TrackingResourceClient<>(delegate.inNamespace(namespace), tracker);
    }

    @Override
    public ResourceClient<T> withDeadline(Duration deadline) {
        return new TrackingResourceClient<>(delegate.withDeadline(deadline), tracker);
    }

    @Override
    public T get(String name) {
        return delegate.get(name);
    }

    @Override
    public Optional<T> find(String name) {
        return delegate.find(name);
    }

    @Override
    public ResourceList<T> list(ListOptions options) {
        return delegate.list(options);
    }

    @Override
    public Stream<T> listAll(ListOptions options) {
        return delegate.listAll(options);
    }

    @Override
    public Flux<WatchEvent<T>> watch(ListOptions options) {
        return delegate.watch(options);
    }

    @Override
    public T create(T object) {
        return track(delegate.create(object));
    }

    @Override
    public T update(T object) {
        return track(delegate.update(object));
    }

    @Override
    public T updateStatus(T object) {
        return track(delegate.updateStatus(object));
    }

    @Override
    public T patch(String name, PatchType type, Object patch, PatchOptions options) {
        return track(delegate.patch(name, type, patch, options));
    }

    @Override
    public T patchStatus(String name, PatchType type, Object patch, PatchOptions options) {
        return track(delegate.patchStatus(name, type, patch, options));
    }

    @Override
    public T apply(T object, PatchOptions options) {
        return track(delegate.apply(object, options));
    }

    @Override
    public T applyStatus(T object, PatchOptions options) {
        return track(delegate.applyStatus(object, options));
    }

    @Override
    public void delete(String name, DeleteOptions options) {
        delegate.delete(name, options);
    }

    @Override
    public void deleteCollection(ListOptions selection, DeleteOptions options) {
        delegate.deleteCollection(selection, options);
    }

    @Override
    public Scale getScale(String name) {
        return delegate.getScale(name);
    }

    @Override
    public Scale updateScale(String name, Scale scale) {
        return delegate.updateScale(name, scale);
    }
}

package dev.operatorstarter.client;

import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.client.rest.WatchEvent;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;

/**
 * The verbs of one resource (client-go's typed clients and dynamic {@code ResourceInterface} in
 * one shape). Get one from {@link KubernetesClient#resources(Class)} or
 * {@link KubernetesClient#dynamic(GroupVersionResource)}.
 *
 * <p>Namespaces: {@link #inNamespace} scopes a client. Without a scope, list, watch and
 * deleteCollection cover all namespaces; get, patch and delete of a namespaced resource fail with
 * {@link IllegalStateException}; create, update and apply use the object's
 * {@code metadata.namespace}.
 *
 * <p>Errors: the server's refusals are {@link ApiException}s (see {@link ApiErrors}); transport
 * and decoding failures are {@link KubernetesClientException}s. Blocking methods must not run on
 * a Reactor I/O thread. Instances are immutable and thread-safe.
 */
public interface ResourceClient<T extends HasMetadata> {

    /** This resource's type. */
    ResourceType<T> type();

    /** A client for the objects in {@code namespace}. */
    ResourceClient<T> inNamespace(String namespace);

    /**
     * A client whose every non-streaming call is a single attempt that must finish within
     * {@code deadline}: not retried (not on 429, 5xx or a reset connection either) and not
     * queued behind the client's rate limiter (see {@link dev.operatorstarter.client.rest.Request#deadline}).
     * For work that has a deadline of its own, such as renewing a leader's lease: there a late
     * answer is worth nothing and a hung request must not hold the caller past its guarantee.
     * A call past the deadline fails with a {@link KubernetesClientException}. Watches are unaffected.
     */
    ResourceClient<T> withDeadline(Duration deadline);

    /** The object, or {@link ApiException.NotFound}. */
    T get(String name);

    /** The object, or empty when it does not exist. */
    Optional<T> find(String name);

    /** One list request: a page when {@code options} has a limit. */
    ResourceList<T> list(ListOptions options);

    /** Every object, in one request. */
    default ResourceList<T> list() {
        return list(ListOptions.none());
    }

    /**
     * Every object matching {@code options}, fetched page by page as the stream is consumed
     * (pages of {@code options.limit()}, or 500 when it is 0). A continue token that expires
     * mid-way fails the stream with {@link ApiException.Gone}. Close the stream if you stop early.
     */
    Stream<T> listAll(ListOptions options);

    /**
     * Watches from {@code options.resourceVersion()}: events as they arrive, ending when the server
     * closes the watch; cancel the subscription to stop.
     */
    Flux<WatchEvent<T>> watch(ListOptions options);

    /** Creates the object; returns it as stored. */
    T create(T object);

    /** Replaces the object (with its resourceVersion: a stale one fails with {@link ApiException.Conflict}). */
    T update(T object);

    /** Replaces the object's status subresource. */
    T updateStatus(T object);

    /**
     * Patches the object. {@code patch} is a {@code String} or {@code byte[]} sent as is, or an
     * object written as JSON.
     */
    T patch(String name, PatchType type, Object patch, PatchOptions options);

    default T patch(String name, PatchType type, Object patch) {
        return patch(name, type, patch, PatchOptions.none());
    }

    /** Patches the status subresource. */
    T patchStatus(String name, PatchType type, Object patch, PatchOptions options);

    /**
     * Server-side apply of {@code object}'s fields as {@code options.fieldManager()} (required).
     * Without {@code force}, fields owned by another manager fail with {@link ApiException.Conflict}.
     * {@code managedFields} in the object are ignored.
     */
    T apply(T object, PatchOptions options);

    /** Server-side apply of the status subresource. */
    T applyStatus(T object, PatchOptions options);

    /** Deletes the object; {@link ApiException.NotFound} if it does not exist. */
    void delete(String name, DeleteOptions options);

    default void delete(String name) {
        delete(name, DeleteOptions.defaults());
    }

    /** Deletes every object matching {@code selection}. */
    void deleteCollection(ListOptions selection, DeleteOptions options);

    /** The scale subresource (Deployments, StatefulSets, ReplicaSets, CRDs that declare one). */
    Scale getScale(String name);

    /** Updates the scale subresource. */
    Scale updateScale(String name, Scale scale);
}

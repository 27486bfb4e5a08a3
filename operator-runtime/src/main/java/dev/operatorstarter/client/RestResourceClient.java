package dev.operatorstarter.client;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.client.rest.Request;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.internal.Durations;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.node.ObjectNode;

/** {@link ResourceClient} on the {@link RestClient}: one class for typed and dynamic resources. */
final class RestResourceClient<T extends HasMetadata> implements ResourceClient<T> {

    private static final long DEFAULT_PAGE = 500; // client-go's pager default
    private static final JavaType SCALE = Json.MAPPER.constructType(Scale.class);

    private final RestClient rest;
    private final ResourceType<T> type;
    private final @Nullable String namespace;
    private final JavaType itemType;
    private final JavaType listType;
    private final @Nullable Duration deadline;

    RestResourceClient(RestClient rest, ResourceType<T> type, @Nullable String namespace) {
        this(rest, type, namespace, null);
    }

    private RestResourceClient(RestClient rest, ResourceType<T> type, @Nullable String namespace,
            @Nullable Duration deadline) {
        if (namespace != null && !type.namespaced()) {
            throw new IllegalArgumentException(type + " is cluster-scoped: it has no namespace " + namespace);
        }
        this.rest = rest;
        this.type = type;
        this.namespace = namespace;
        this.itemType = Json.MAPPER.constructType(type.javaClass());
        this.listType = Json.MAPPER.getTypeFactory().constructParametricType(ResourceList.class, type.javaClass());
        this.deadline = deadline;
    }

    @Override
    public ResourceType<T> type() {
        return type;
    }

    @Override
    public ResourceClient<T> inNamespace(String namespace) {
        Objects.requireNonNull(namespace, "namespace");
        return new RestResourceClient<>(rest, type, namespace, deadline);
    }

    @Override
    public ResourceClient<T> withDeadline(Duration deadline) {
        return new RestResourceClient<>(rest, type, namespace, Durations.requirePositive(deadline, "deadline"));
    }

    @Override
    public T get(String name) {
        return required(on(rest.get(), requireNamespace("get " + name)).name(name).execute(itemType), "GET");
    }

    @Override
    public Optional<T> find(String name) {
        try {
            return Optional.of(get(name));
        } catch (ApiException.NotFound e) {
            return Optional.empty();
        }
    }

    @Override
    public ResourceList<T> list(ListOptions options) {
        return required(on(rest.get(), namespace).options(options).<ResourceList<T>>execute(listType), "LIST");
    }

    @Override
    public Stream<T> listAll(ListOptions options) {
        ListOptions paged = options.limit() > 0 ? options : options.toBuilder().limit(DEFAULT_PAGE).build();
        Iterator<T> items = new Iterator<>() {
            private Iterator<T> page = List.<T>of().iterator();
            private @Nullable String next = paged.continueToken() == null ? "" : paged.continueToken();

            @Override
            public boolean hasNext() {
                while (!page.hasNext() && next != null) {
                    ResourceList<T> list = list(next.isEmpty() ? paged
                            // A continue token carries the snapshot: the server refuses a resourceVersion
                            // (or match) beside it, so later pages send neither, as client-go's pager does.
                            : paged.toBuilder().continueToken(next).resourceVersion(null).resourceVersionMatch(null)
                                    .build());
                    page = list.items().iterator();
                    next = list.continueToken().isEmpty() ? null : list.continueToken();
                }
                return page.hasNext();
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.next();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(items, Spliterator.ORDERED | Spliterator.NONNULL),
                false);
    }

    @Override
    public Flux<WatchEvent<T>> watch(ListOptions options) {
        return Flux.defer(() -> on(rest.get(), namespace).options(options).watch(itemType));
    }

    @Override
    public T create(T object) {
        return required(on(rest.post(), namespaceOf(object, "create")).body(object).execute(itemType), "POST");
    }

    @Override
    public T update(T object) {
        return required(on(rest.put(), namespaceOf(object, "update")).name(nameOf(object)).body(object)
                .execute(itemType), "PUT");
    }

    @Override
    public T updateStatus(T object) {
        return required(on(rest.put(), namespaceOf(object, "update the status of")).name(nameOf(object))
                .subresource("status").body(object).execute(itemType), "PUT");
    }

    @Override
    public T patch(String name, PatchType patchType, Object patch, PatchOptions options) {
        return patch(name, requireNamespace("patch " + name), null, patchType, patch, options);
    }

    @Override
    public T patchStatus(String name, PatchType patchType, Object patch, PatchOptions options) {
        return patch(name, requireNamespace("patch the status of " + name), "status", patchType, patch, options);
    }

    @Override
    public T apply(T object, PatchOptions options) {
        return patch(nameOf(object), namespaceOf(object, "apply"), null, PatchType.APPLY, applyBody(object), options);
    }

    @Override
    public T applyStatus(T object, PatchOptions options) {
        return patch(nameOf(object), namespaceOf(object, "apply the status of"), "status", PatchType.APPLY,
                applyBody(object), options);
    }

    private T patch(String name, @Nullable String inNamespace, @Nullable String subresource, PatchType patchType,
            Object patch, PatchOptions options) {
        if (patchType == PatchType.APPLY && options.fieldManager() == null) {
            throw new IllegalArgumentException("server-side apply needs a field manager: PatchOptions.apply(\"my-operator\")");
        }
        Request request = on(rest.patch(patchType), inNamespace).name(name).body(patch);
        if (subresource != null) {
            request.subresource(subresource);
        }
        if (options.fieldManager() != null) {
            request.param("fieldManager", options.fieldManager());
        }
        if (options.force()) {
            if (patchType != PatchType.APPLY) {
                throw new IllegalArgumentException("force applies only to server-side apply, not to " + patchType);
            }
            request.param("force", "true");
        }
        if (options.dryRun()) {
            request.param("dryRun", "All");
        }
        return required(request.execute(itemType), "PATCH");
    }

    /** The object as JSON without managedFields, which an apply must not send. */
    private static ObjectNode applyBody(HasMetadata object) {
        ObjectNode body = Json.MAPPER.valueToTree(object);
        if (body.get("metadata") instanceof ObjectNode metadata) {
            metadata.remove("managedFields");
        }
        return body;
    }

    @Override
    public void delete(String name, DeleteOptions options) {
        on(rest.delete(), requireNamespace("delete " + name)).name(name).body(options.toBody()).bytes();
    }

    @Override
    public void deleteCollection(ListOptions selection, DeleteOptions options) {
        on(rest.delete(), namespace).options(selection).body(options.toBody()).bytes();
    }

    @Override
    public Scale getScale(String name) {
        return required(on(rest.get(), requireNamespace("get the scale of " + name)).name(name).subresource("scale")
                .execute(SCALE), "GET");
    }

    @Override
    public Scale updateScale(String name, Scale scale) {
        return required(on(rest.put(), requireNamespace("scale " + name)).name(name).subresource("scale").body(scale)
                .execute(SCALE), "PUT");
    }

    private Request on(Request request, @Nullable String inNamespace) {
        if (deadline != null) {
            request.deadline(deadline);
        }
        return request.groupVersion(type.group(), type.version()).namespace(inNamespace).resource(type.plural());
    }

    private @Nullable String requireNamespace(String action) {
        if (type.namespaced() && namespace == null) {
            throw new IllegalStateException("cannot " + action + ": " + type + " is namespaced; use inNamespace(...)");
        }
        return namespace;
    }

    private @Nullable String namespaceOf(T object, String action) {
        if (!type.namespaced()) {
            return null;
        }
        String own = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
        if (namespace != null) {
            if (own != null && !own.isEmpty() && !own.equals(namespace)) {
                throw new IllegalArgumentException("cannot " + action + " " + nameOrGenerate(object) + ": its namespace "
                        + own + " differs from the client's " + namespace);
            }
            return namespace;
        }
        if (own == null || own.isEmpty()) {
            throw new IllegalStateException("cannot " + action + " " + nameOrGenerate(object) + ": " + type
                    + " is namespaced; set metadata.namespace or use inNamespace(...)");
        }
        return own;
    }

    private static String nameOf(HasMetadata object) {
        String name = object.getMetadata() == null ? null : object.getMetadata().getName();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("the object has no metadata.name");
        }
        return name;
    }

    private static String nameOrGenerate(HasMetadata object) {
        if (object.getMetadata() == null) {
            return "an object without metadata";
        }
        return object.getMetadata().getName() != null ? object.getMetadata().getName()
                : object.getMetadata().getGenerateName() + "*";
    }

    private static <V> V required(@Nullable V value, String verb) {
        if (value == null) {
            throw new KubernetesClientException(verb + " returned an empty body");
        }
        return value;
    }
}

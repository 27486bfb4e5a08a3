package dev.operatorstarter.cache;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.Request;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JavaType;

/**
 * Lists and watches only the metadata of a resource's objects (client-go's metadata informer):
 * the requests ask, by content negotiation, for {@code PartialObjectMetadataList} and
 * {@code PartialObjectMetadata} of {@code meta.k8s.io/v1}, so the server sends no spec or status.
 *
 * <p>A server or aggregated API that does not offer the conversion answers with full objects (the
 * {@code application/json} the Accept header falls back to). They are decoded straight into
 * {@link PartialObjectMetadata}, so their spec and status are skipped while reading and never
 * cached; the first time that happens it is logged once, as it costs the bandwidth the
 * negotiation would have saved.
 *
 * <p>Every object it hands out, listed or watched, negotiated or not, carries the resource's own
 * {@code apiVersion} and {@code kind} ({@code v1 ConfigMap}), not {@code meta.k8s.io/v1
 * PartialObjectMetadata} nor the nothing the items of a full list carry, as controller-runtime's
 * metadata informer sets the group, version and kind of each object: owner references and events
 * built from a cached object then name the right kind. The kind is asked for once, at the first
 * list (the reflector retries a failed lookup like a failed list), and kept.
 */
final class MetadataListerWatcher implements ListerWatcher<PartialObjectMetadata> {

    private static final Logger log = LoggerFactory.getLogger(MetadataListerWatcher.class);

    /** The metadata form first, the full object as the fallback. */
    static final String ACCEPT_LIST = "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,"
            + "application/json";
    static final String ACCEPT_WATCH = "application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json";
    private static final JavaType ITEM = Json.MAPPER.constructType(PartialObjectMetadata.class);
    private static final JavaType LIST = Json.MAPPER.getTypeFactory()
            .constructParametricType(ResourceList.class, PartialObjectMetadata.class);

    private final RestClient rest;
    private final GroupVersionResource resource;
    private final @Nullable String namespace;
    private final Supplier<String> kindLookup;
    private final AtomicBoolean fellBack = new AtomicBoolean();
    private volatile @Nullable String kind;

    /**
     * Every object of {@code resource} in {@code namespace} (null: all), stamped with the kind
     * {@code kindLookup} gives (called at the first list, until it succeeds); selectors come from
     * {@link ListerWatcher#selecting}.
     */
    MetadataListerWatcher(RestClient rest, GroupVersionResource resource, @Nullable String namespace,
            Supplier<String> kindLookup) {
        this.rest = rest;
        this.resource = resource;
        this.namespace = namespace;
        this.kindLookup = Objects.requireNonNull(kindLookup, "kindLookup");
    }

    @Override
    public ResourceList<PartialObjectMetadata> list(ListOptions options) {
        String kind = kind();
        ResourceList<PartialObjectMetadata> page = request(options).accept(ACCEPT_LIST).execute(LIST);
        if (page == null) {
            throw new IllegalStateException("LIST " + resource + " returned no body");
        }
        if (!"PartialObjectMetadataList".equals(page.kind())) {
            fellBack(page.kind());
        }
        for (PartialObjectMetadata item : page.items()) {
            stamp(item, kind);
        }
        return page;
    }

    @Override
    public Flux<WatchEvent<PartialObjectMetadata>> watch(ListOptions options) {
        return Flux.defer(() -> {
            String kind = kind();
            return request(options).accept(ACCEPT_WATCH).<PartialObjectMetadata>watch(ITEM).doOnNext(event -> {
                PartialObjectMetadata object = null;
                if (event instanceof WatchEvent.Added<PartialObjectMetadata> added) {
                    object = added.object();
                } else if (event instanceof WatchEvent.Modified<PartialObjectMetadata> modified) {
                    object = modified.object();
                } else if (event instanceof WatchEvent.Deleted<PartialObjectMetadata> deleted) {
                    object = deleted.object();
                }
                if (object == null) {
                    return;
                }
                if (!(event instanceof WatchEvent.Deleted) && !"PartialObjectMetadata".equals(object.getKind())) {
                    fellBack(object.getKind());
                }
                stamp(object, kind);
            });
        });
    }

    /** The resource's kind, looked up once. */
    private String kind() {
        String known = kind;
        if (known == null) {
            String found = kindLookup.get();
            if (found == null || found.isEmpty()) {
                throw new IllegalStateException("no kind found for " + resource);
            }
            kind = known = found;
        }
        return known;
    }

    private void stamp(PartialObjectMetadata object, String kind) {
        object.setApiVersion(resource.group().isEmpty() ? resource.version()
                : resource.group() + "/" + resource.version());
        object.setKind(kind);
    }

    private Request request(ListOptions options) {
        return rest.get().groupVersion(resource.group(), resource.version()).namespace(namespace)
                .resource(resource.resource()).options(options);
    }

    private void fellBack(@Nullable String kind) {
        if (fellBack.compareAndSet(false, true)) {
            log.info("{}: the server sends full objects ({}) instead of PartialObjectMetadata; caching only their "
                    + "metadata", this, kind);
        }
    }

    @Override
    public String toString() {
        return resource.groupResource() + (namespace == null ? "" : "/" + namespace) + " (metadata)";
    }
}

package dev.operatorstarter.cache;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.Request;
import dev.operatorstarter.client.rest.RestClient;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.concurrent.atomic.AtomicBoolean;
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
    private final AtomicBoolean fellBack = new AtomicBoolean();

    /** Every object of {@code resource} in {@code namespace} (null: all); selectors come from {@link ListerWatcher#selecting}. */
    MetadataListerWatcher(RestClient rest, GroupVersionResource resource, @Nullable String namespace) {
        this.rest = rest;
        this.resource = resource;
        this.namespace = namespace;
    }

    @Override
    public ResourceList<PartialObjectMetadata> list(ListOptions options) {
        ResourceList<PartialObjectMetadata> page = request(options).accept(ACCEPT_LIST).execute(LIST);
        if (page == null) {
            throw new IllegalStateException("LIST " + resource + " returned no body");
        }
        if (!"PartialObjectMetadataList".equals(page.kind())) {
            fellBack(page.kind());
        }
        return page;
    }

    @Override
    public Flux<WatchEvent<PartialObjectMetadata>> watch(ListOptions options) {
        return Flux.defer(() -> request(options).accept(ACCEPT_WATCH).<PartialObjectMetadata>watch(ITEM))
                .doOnNext(event -> {
                    PartialObjectMetadata object = null;
                    if (event instanceof WatchEvent.Added<PartialObjectMetadata> added) {
                        object = added.object();
                    } else if (event instanceof WatchEvent.Modified<PartialObjectMetadata> modified) {
                        object = modified.object();
                    }
                    if (object != null && !"PartialObjectMetadata".equals(object.getKind())) {
                        fellBack(object.getKind());
                    }
                });
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

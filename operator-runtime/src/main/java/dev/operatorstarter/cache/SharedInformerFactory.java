package dev.operatorstarter.cache;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.discovery.ApiResource;
import dev.operatorstarter.internal.Poll;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Makes and owns the process's informers: one per resource and {@link InformerScope}, so every
 * controller that watches ConfigMaps in namespace {@code a} shares one cache and one watch, while
 * the same type can be watched separately in namespace {@code b} (client-go's
 * {@code SharedInformerFactory}, without its one-namespace-per-factory limit).
 *
 * <p>Thread-safe. {@link #start()} starts every informer made so far that is not running; an
 * informer asked for later needs another {@code start()}. {@link #close()} stops them all.
 */
public final class SharedInformerFactory implements AutoCloseable {

    private record Key(GroupVersionResource resource, Class<?> type, InformerScope scope) {
    }

    /**
     * An informer as the {@link ObjectReader} sees it: the resource and scope it caches, with the
     * scope's label selector parsed once.
     */
    record Scoped<T extends HasMetadata>(GroupVersionResource resource, InformerScope scope,
            LabelSelector labelSelector, BufferedInformer<T> informer) {
    }

    /** How often a wait for the caches checks them (as client-go's WaitForCacheSync polls). */
    static final Duration SYNC_POLL = Duration.ofMillis(20);

    private final KubernetesClient client;
    private final InformerOptions options;
    private final Map<Key, BufferedInformer<?>> informers = new LinkedHashMap<>();
    /**
     * The informers by the class of their objects, for the reader: replaced (never changed) when
     * an informer is made, so that a read takes no lock; empty once closed.
     */
    private volatile Map<Class<?>, List<Scoped<?>>> byClass = Map.of();
    private boolean closed;

    public SharedInformerFactory(KubernetesClient client, InformerOptions options) {
        this.client = Objects.requireNonNull(client, "client");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** The informer of every {@code type} object in the cluster. */
    public <T extends HasMetadata> SharedIndexInformer<T> informerFor(Class<T> type) {
        return informerFor(ResourceType.of(type), InformerScope.all());
    }

    /** The informer of the {@code type} objects in {@code scope}. */
    public <T extends HasMetadata> SharedIndexInformer<T> informerFor(Class<T> type, InformerScope scope) {
        return informerFor(ResourceType.of(type), scope);
    }

    /** The informer of the {@code type} objects in {@code scope}. */
    public <T extends HasMetadata> SharedIndexInformer<T> informerFor(ResourceType<T> type, InformerScope scope) {
        return informer(type.groupVersionResource(), type.javaClass(), scope, () -> client.resources(type));
    }

    /** A dynamic informer: objects of any resource (a CRD without a Java class) as {@link GenericKubernetesResource}. */
    public SharedIndexInformer<GenericKubernetesResource> informerFor(GroupVersionResource resource,
            InformerScope scope) {
        return informer(resource, GenericKubernetesResource.class, scope, () -> client.dynamic(resource));
    }

    /**
     * A metadata-only informer of the {@code type} objects in {@code scope}: it lists and watches
     * {@link PartialObjectMetadata} (names, labels, annotations, owner references, finalizers,
     * versions; no spec or status), which costs a fraction of the memory and bandwidth of full
     * objects. Its lister returns {@code PartialObjectMetadata}; a controller can {@code owns} or
     * {@code watches} it like any informer, since owner references and labels are all there. A
     * server that refuses the metadata form answers with full objects, which are reduced to their
     * metadata while they are read (logged once). Shared like the others: one per resource and
     * scope, apart from the full informer of the same resource.
     */
    public SharedIndexInformer<PartialObjectMetadata> metadataInformerFor(Class<? extends HasMetadata> type,
            InformerScope scope) {
        ResourceType<? extends HasMetadata> resourceType = ResourceType.of(type);
        String kind = resourceType.kind();
        return metadataInformer(resourceType.groupVersionResource(), scope,
                kind == null ? () -> kindOf(resourceType.groupVersionResource()) : () -> kind);
    }

    /**
     * {@link #metadataInformerFor(Class, InformerScope)} for any resource, by group, version and
     * resource; the kind its cached objects carry comes from discovery, asked at the first list.
     */
    public SharedIndexInformer<PartialObjectMetadata> metadataInformerFor(GroupVersionResource resource,
            InformerScope scope) {
        return metadataInformer(resource, scope, () -> kindOf(resource));
    }

    private SharedIndexInformer<PartialObjectMetadata> metadataInformer(GroupVersionResource resource,
            InformerScope scope, Supplier<String> kind) {
        return informer(resource, PartialObjectMetadata.class, scope, " (metadata)",
                () -> ListerWatcher.selecting(new MetadataListerWatcher(client.rest(), resource,
                        emptyToNull(scope.namespace()), kind), emptyToNull(scope.labelSelector()),
                        emptyToNull(scope.fieldSelector())));
    }

    private String kindOf(GroupVersionResource resource) {
        return client.discovery().findResource(resource.group(), resource.version(), resource.resource())
                .map(ApiResource::kind)
                .orElseThrow(() -> new IllegalStateException("cannot cache the metadata of " + resource
                        + ": the server does not serve it (checked discovery after a refresh)"));
    }

    private <T extends HasMetadata> SharedIndexInformer<T> informer(GroupVersionResource resource, Class<T> type,
            InformerScope scope, Supplier<ResourceClient<T>> clients) {
        return informer(resource, type, scope, "", () -> {
            ResourceClient<T> resources = scope.namespace().isEmpty() ? clients.get()
                    : clients.get().inNamespace(scope.namespace());
            return ListerWatcher.of(resources, emptyToNull(scope.labelSelector()), emptyToNull(scope.fieldSelector()));
        });
    }

    @SuppressWarnings("unchecked")
    private synchronized <T extends HasMetadata> SharedIndexInformer<T> informer(GroupVersionResource resource,
            Class<T> type, InformerScope scope, String nameSuffix, Supplier<ListerWatcher<T>> listerWatcher) {
        if (closed) {
            throw new IllegalStateException("the informer factory is closed");
        }
        Key key = new Key(resource, type, Objects.requireNonNull(scope, "scope"));
        BufferedInformer<?> existing = informers.get(key);
        if (existing != null) {
            return (SharedIndexInformer<T>) existing;
        }
        String name = resource.groupResource() + scope.suffix() + nameSuffix;
        BufferedInformer<T> informer = new BufferedInformer<>(name, listerWatcher.get(), type, options);
        informers.put(key, informer);
        Map<Class<?>, List<Scoped<?>>> next = new HashMap<>(byClass);
        List<Scoped<?>> ofClass = new ArrayList<>(next.getOrDefault(type, List.of()));
        ofClass.add(new Scoped<>(resource, scope, LabelSelector.parse(scope.labelSelector()), informer));
        next.put(type, List.copyOf(ofClass));
        byClass = Map.copyOf(next);
        return informer;
    }

    private static String emptyToNull(String value) {
        return value.isEmpty() ? null : value;
    }

    /** Starts every informer made so far (those running already are left alone). */
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("the informer factory is closed");
        }
        informers.values().forEach(BufferedInformer::start);
    }

    /**
     * The informers whose objects are of class {@code type} (so not its metadata-only or dynamic
     * ones), running or not, in the order they were made; none once the factory is closed. For the
     * {@link ObjectReader}: takes no lock, as it runs on every read.
     */
    @SuppressWarnings("unchecked")
    <T extends HasMetadata> List<Scoped<T>> informersOf(Class<T> type) {
        return (List<Scoped<T>>) (List<?>) byClass.getOrDefault(type, List.of());
    }

    /** The client the informers list and watch with. */
    KubernetesClient client() {
        return client;
    }

    /** The resources of the informers made so far, each once, in the order first asked for. */
    public synchronized List<GroupVersionResource> resources() {
        return informers.keySet().stream().map(Key::resource).distinct().toList();
    }

    /**
     * The resource {@code informer} caches, when this factory made it; empty for an informer made
     * elsewhere. For code handed informers that needs to know what they hold (sharding counts a
     * moved object's children per resource).
     */
    public synchronized Optional<GroupVersionResource> resourceOf(SharedIndexInformer<?> informer) {
        return keyOf(informer).map(Key::resource);
    }

    /** The scope {@code informer} was made for, when this factory made it; empty for an informer made elsewhere. */
    public synchronized Optional<InformerScope> scopeOf(SharedIndexInformer<?> informer) {
        return keyOf(informer).map(Key::scope);
    }

    private Optional<Key> keyOf(SharedIndexInformer<?> informer) {
        Objects.requireNonNull(informer, "informer");
        return informers.entrySet().stream().filter(entry -> entry.getValue() == informer).map(Map.Entry::getKey)
                .findFirst();
    }

    /** The informers made so far. */
    public synchronized List<SharedIndexInformer<?>> informers() {
        return new ArrayList<>(informers.values());
    }

    /**
     * Waits until every informer made so far has synced, looking every 20 ms. The timeout is
     * measured on the reflector options' {@linkplain ReflectorOptions#timeSource() time source}.
     *
     * @throws InformerSyncException after {@code timeout}, naming each informer not synced and its last error
     * @throws InterruptedException if interrupted while waiting
     */
    public void waitForCacheSync(Duration timeout) throws InterruptedException {
        List<SharedIndexInformer<?>> waiting = informers();
        TimeSource time = options.reflector().timeSource();
        if (!Poll.until(() -> waiting.stream().allMatch(SharedIndexInformer::hasSynced), time.deadlineAfter(timeout),
                time, SYNC_POLL)) {
            throw InformerSyncException.of("informers", timeout, waiting);
        }
    }

    /** Stops every informer; the factory cannot be used afterwards. */
    @Override
    public synchronized void close() {
        closed = true;
        byClass = Map.of();
        informers.values().forEach(BufferedInformer::stop);
    }
}

package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.controller.Cleaner;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerBuilder;
import dev.operatorstarter.controller.ControllerDecorator;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.Finalizers;
import dev.operatorstarter.controller.ReconcileHandler;
import dev.operatorstarter.controller.ReconcileRequest;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Describes a controller that a {@link Manager} runs (controller-runtime's builder), started with
 * {@link Manager#controller}: what it reconciles, what it owns and watches, where, and how. For example:
 *
 * <pre>{@code
 * manager.controller(ConfigMap.class)
 *         .namespaces("team-a", "team-b").labelSelector("mirror=true")
 *         .owns(Secret.class).ownsMetadata(ServiceAccount.class)
 *         .finalizer("example.com/cleanup", cleaner)
 *         .reconcile(handler);
 * }</pre>
 *
 * <p>{@link #reconcile} makes the informers on the manager's factory (equal scopes share one cache)
 * and applies the scope rules, which a {@code @Reconciler} bean gets the same way:
 * <ul>
 *   <li>each namespaced resource is cached once per namespace of {@link #namespaces} (all namespaces
 *       when none is given); cluster-scoped ones once;</li>
 *   <li>the primary takes {@link #labelSelector}, else the manager's {@linkplain ManagerBuilder#selectors
 *       selectors} for its type; owned resources take {@link #ownedLabelSelector}, else the manager's;
 *       watched ones the manager's (an owned ConfigMap does not carry its owner's labels);</li>
 *   <li>a change of an owned object reconciles its controlling owner; of a watched one, what its mapper says;</li>
 *   <li>the finalizer's writes, and every write through {@link Controller#tracked}, are read back
 *       from the cache before the next reconcile of the object (read-your-own-writes);</li>
 *   <li>an {@linkplain #extendedBy extension} (the sharding) narrows the primary and owned
 *       informers, decorates the controller and chooses its group.</li>
 * </ul>
 * Not thread-safe; use each builder once.
 *
 * @param <T> the primary resource's class
 */
public final class ManagedControllerBuilder<T extends HasMetadata> {

    private final Manager manager;
    private final ResourceType<T> type;
    private final ManagerOptions managerOptions;
    private final CachedInformers cached;
    private String name;
    private int workers;
    private final List<Consumer<ControllerOptions.Builder>> options = new ArrayList<>();
    private final List<String> namespaces = new ArrayList<>();
    private String labelSelector = "";
    private String ownedLabelSelector = "";
    private EventFilter<T> filter = EventFilter.all();
    private final List<ResourceType<?>> owned = new ArrayList<>();
    private final List<ResourceType<?>> ownedMetadata = new ArrayList<>();
    private final List<Mapped<?>> watches = new ArrayList<>();
    private @Nullable String finalizer;
    private @Nullable Cleaner<T> cleaner;
    private RunnableGroup group = RunnableGroup.LEADER_TERM;
    private @Nullable ControllerExtension extension;
    private final List<ControllerDecorator<T>> decorators = new ArrayList<>();
    private boolean built;
    /** The runtime's builder of the controller, once {@link #reconcile} made it; where tracked writes are recorded. */
    private volatile @Nullable ControllerBuilder<T> controllerBuilder;

    /** A watched resource and its mapper; {@code metadata} when cached as metadata only. */
    private record Mapped<O>(ResourceType<?> type, boolean metadata, Function<O, Collection<ReconcileRequest>> mapper) {
    }

    ManagedControllerBuilder(Manager manager, ResourceType<T> type, ManagerOptions managerOptions,
            CachedInformers cached) {
        this.manager = manager;
        this.cached = cached;
        this.type = Objects.requireNonNull(type, "type");
        this.managerOptions = managerOptions;
        this.name = type.kind() != null ? type.kind().toLowerCase(Locale.ROOT) : type.plural();
    }

    /** The controller's name in metrics and logs; default the kind in lower case (as controller-runtime). */
    public ManagedControllerBuilder<T> named(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    /** How many reconciles may run at once; default {@link ControllerOptions}' (1). */
    public ManagedControllerBuilder<T> workers(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, not " + workers);
        }
        this.workers = workers;
        return this;
    }

    /**
     * Tunes the controller's options (rate limiter, timeouts, metrics, threads); the manager's
     * cache-sync timeout and time source are set before, {@link #workers} after.
     */
    public ManagedControllerBuilder<T> options(Consumer<ControllerOptions.Builder> options) {
        this.options.add(Objects.requireNonNull(options, "options"));
        return this;
    }

    /** The namespaces of every namespaced resource the controller caches; default all. Blank entries are ignored. */
    public ManagedControllerBuilder<T> namespaces(String... namespaces) {
        return namespaces(Arrays.asList(namespaces));
    }

    /** The namespaces of every namespaced resource the controller caches; default all. Blank entries are ignored. */
    public ManagedControllerBuilder<T> namespaces(Collection<String> namespaces) {
        namespaces.stream().map(String::strip).filter(ns -> !ns.isEmpty()).forEach(this.namespaces::add);
        return this;
    }

    /** The label selector of the primary informers; default the manager's selectors for the type. */
    public ManagedControllerBuilder<T> labelSelector(String selector) {
        this.labelSelector = Objects.requireNonNull(selector, "selector").strip();
        return this;
    }

    /** The label selector of the owned resources' informers; default the manager's selectors for each type. */
    public ManagedControllerBuilder<T> ownedLabelSelector(String selector) {
        this.ownedLabelSelector = Objects.requireNonNull(selector, "selector").strip();
        return this;
    }

    /** Only primary notifications that pass {@code filter} become requests; replaces an earlier filter. */
    public ManagedControllerBuilder<T> withFilter(EventFilter<T> filter) {
        this.filter = Objects.requireNonNull(filter, "filter");
        return this;
    }

    /** Reconciles only when the primary's generation changed (spec changes, not status). */
    public ManagedControllerBuilder<T> generationChanged() {
        return withFilter(EventFilter.generationChanged());
    }

    /** Caches {@code owned} in full and reconciles the controlling owner of each changed or deleted object. */
    public ManagedControllerBuilder<T> owns(Class<? extends HasMetadata> owned) {
        this.owned.add(ResourceType.of(owned));
        return this;
    }

    /** As {@link #owns}, caching the objects' metadata only (a fraction of the memory). */
    public ManagedControllerBuilder<T> ownsMetadata(Class<? extends HasMetadata> owned) {
        this.ownedMetadata.add(ResourceType.of(owned));
        return this;
    }

    /** Caches {@code watched} in full and reconciles the requests {@code mapper} derives from each changed object. */
    public <O extends HasMetadata> ManagedControllerBuilder<T> watches(Class<O> watched,
            Function<O, Collection<ReconcileRequest>> mapper) {
        watches.add(new Mapped<>(ResourceType.of(watched), false, Objects.requireNonNull(mapper, "mapper")));
        return this;
    }

    /** As {@link #watches}, caching the objects' metadata only. */
    public ManagedControllerBuilder<T> watchesMetadata(Class<? extends HasMetadata> watched,
            Function<PartialObjectMetadata, Collection<ReconcileRequest>> mapper) {
        watches.add(new Mapped<>(ResourceType.of(watched), true, Objects.requireNonNull(mapper, "mapper")));
        return this;
    }

    /**
     * Guards every object with {@code finalizer}: added before its first reconcile, and on deletion
     * {@code cleaner} runs instead of the reconcile, then the finalizer is removed ({@link Finalizers#handler}).
     */
    public ManagedControllerBuilder<T> finalizer(String finalizer, Cleaner<T> cleaner) {
        if (finalizer == null || finalizer.isBlank()) {
            throw new IllegalArgumentException("a finalizer needs a name");
        }
        this.finalizer = finalizer;
        this.cleaner = Objects.requireNonNull(cleaner, "cleaner");
        return this;
    }

    /**
     * The group the controller runs in: {@link RunnableGroup#LEADER_TERM} (the default: only the
     * leader reconciles) or {@link RunnableGroup#ALWAYS} (every replica does).
     */
    public ManagedControllerBuilder<T> runIn(RunnableGroup group) {
        if (group != RunnableGroup.LEADER_TERM && group != RunnableGroup.ALWAYS) {
            throw new IllegalArgumentException("a controller runs in LEADER_TERM or ALWAYS, not " + group
                    + " (a member term's controllers come from an extension, such as the sharding)");
        }
        this.group = group;
        return this;
    }

    /**
     * Wraps the filter and the handler with {@code decorator} ({@link ControllerBuilder#decoratedBy});
     * a later decorator wraps the earlier ones, and an extension's wraps them all.
     */
    public ManagedControllerBuilder<T> decoratedBy(ControllerDecorator<T> decorator) {
        decorators.add(Objects.requireNonNull(decorator, "decorator"));
        return this;
    }

    /** Shapes the controller with {@code extension} (for example the sharding, which makes it this replica's shard's). */
    public ManagedControllerBuilder<T> extendedBy(ControllerExtension extension) {
        this.extension = Objects.requireNonNull(extension, "extension");
        return this;
    }

    /**
     * {@code client}, recording every successful write for the read-your-own-writes of the
     * controller this builder builds (as {@link Controller#tracked}): the next reconcile of an object
     * this client wrote waits until the cache shows the write. For a handler made before its
     * controller, for example one that writes its primary's status. Its writes work once
     * {@link #reconcile} has built the controller (reconciles run only after that); before, they
     * throw {@link IllegalStateException}.
     */
    @SuppressWarnings("unchecked")
    public <R extends HasMetadata> ResourceClient<R> tracked(ResourceClient<R> client) {
        Objects.requireNonNull(client, "client");
        return (ResourceClient<R>) Proxy.newProxyInstance(ResourceClient.class.getClassLoader(),
                new Class<?>[] { ResourceClient.class }, (proxy, method, args) -> {
                    ControllerBuilder<T> target = controllerBuilder;
                    Object on;
                    if (method.getDeclaringClass() == Object.class || method.getName().equals("type")) {
                        on = client;
                    } else if (target == null) {
                        throw new IllegalStateException("controller " + name + " is not built yet: call reconcile(...) "
                                + "on its builder before using its tracked client");
                    } else {
                        on = target.tracked(client);
                    }
                    try {
                        return method.invoke(on, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** Each resource cached in full or as metadata only, not both: two caches of one type would disagree. */
    private void requireOneCacheEach() {
        Map<String, List<ResourceType<?>>> full = new LinkedHashMap<>();
        full.put("owns", owned);
        full.put("watches", watches.stream().filter(w -> !w.metadata()).<ResourceType<?>>map(Mapped::type).toList());
        Map<String, List<ResourceType<?>>> metadata = new LinkedHashMap<>();
        metadata.put("ownsMetadata", ownedMetadata);
        metadata.put("watchesMetadata", watches.stream().filter(Mapped::metadata).<ResourceType<?>>map(Mapped::type).toList());
        full.forEach((fullMethod, fullTypes) -> metadata.forEach((metadataMethod, metadataTypes) -> {
            for (ResourceType<?> each : metadataTypes) {
                if (fullTypes.contains(each)) {
                    throw new IllegalArgumentException("controller " + name + " has " + each.javaClass().getName()
                            + " in both " + fullMethod + " and " + metadataMethod + "; keep it in one (" + metadataMethod
                            + " caches only its metadata, " + fullMethod + " whole objects)");
                }
            }
        }));
    }

    /**
     * Builds the controller, which runs {@code handler}, and adds it to the manager.
     *
     * @throws IllegalStateException once the manager has started, or when this builder built before
     * @throws IllegalArgumentException when a resource is both cached in full and as metadata only
     * @throws ExtensionRefusedException when the extension refuses the controller
     */
    public Controller<T> reconcile(ReconcileHandler<T> handler) {
        Objects.requireNonNull(handler, "handler");
        if (built) {
            throw new IllegalStateException("this builder built controller " + name + " already");
        }
        manager.requireIdle("add controller " + name);
        requireOneCacheEach();
        built = true;
        SharedInformerFactory factory = manager.informers();
        List<InformerScope> primaryScopes = scopes(type, labelSelector);
        List<SharedIndexInformer<T>> primaries = primaryScopes.stream()
                .map(scope -> factory.informerFor(type, narrow(scope))).toList();
        primaries.forEach(informer -> cached.full(type, informer));
        ControllerBuilder<T> controller = Controller.builder(controllerOptions(), type, primaries).withFilter(filter);
        controllerBuilder = controller;
        Map<ResourceType<?>, List<InformerScope>> ownedScopes = new LinkedHashMap<>();
        List<SharedIndexInformer<?>> ownedInformers = new ArrayList<>();
        for (ResourceType<?> each : owned) {
            ownedScopes.put(each, scopes(each, ownedLabelSelector));
            for (InformerScope scope : ownedScopes.get(each)) {
                SharedIndexInformer<?> informer = factory.informerFor(each, narrow(scope));
                cached.full(each, informer);
                ownedInformers.add(informer);
            }
        }
        for (ResourceType<?> each : ownedMetadata) {
            ownedScopes.put(each, scopes(each, ownedLabelSelector));
            for (InformerScope scope : ownedScopes.get(each)) {
                SharedIndexInformer<PartialObjectMetadata> informer = factory.metadataInformerFor(each.javaClass(),
                        narrow(scope));
                cached.metadata(each, informer);
                ownedInformers.add(informer);
            }
        }
        ownedInformers.forEach(controller::owns);
        decorators.forEach(controller::decoratedBy);
        if (extension != null) {
            List<ResourceType<?>> watched = watches.stream().<ResourceType<?>>map(Mapped::type).toList();
            ControllerLayout<T> layout = new ControllerLayout<>(name, type, primaryScopes, ownedScopes, ownedInformers,
                    watched);
            controller.decoratedBy(extended(() -> extension.decorate(layout)));
        }
        watches.forEach(watch -> watch(controller, watch));
        Controller<T> built = controller.build(finalizer == null ? handler : Finalizers.handler(finalizer, handler,
                Objects.requireNonNull(cleaner), listerOf(primaries),
                () -> controller.tracked(manager.client().resources(type))));
        if (extension != null) {
            extended(() -> {
                extension.adopt(built);
                return built;
            });
        }
        manager.add(ManagedRunnable.of(built), extension != null ? extension.group() : group);
        return built;
    }

    /** What the extension answers; its refusal as an {@link ExtensionRefusedException} naming this controller. */
    private <R> R extended(Supplier<R> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw new ExtensionRefusedException(name, e);
        }
    }

    private ControllerOptions controllerOptions() {
        ControllerOptions.Builder builder = ControllerOptions.builder(name)
                .cacheSyncTimeout(managerOptions.cacheSyncTimeout()).timeSource(managerOptions.timeSource());
        options.forEach(each -> each.accept(builder));
        if (workers > 0) {
            builder.workers(workers);
        }
        return builder.build();
    }

    /** The informers of a watched resource, one per namespace; narrowed as owned ones when it is owned too. */
    @SuppressWarnings("unchecked")
    private <O> void watch(ControllerBuilder<T> controller, Mapped<O> watch) {
        boolean isOwned = owned.contains(watch.type()) || ownedMetadata.contains(watch.type());
        for (InformerScope scope : scopes(watch.type(), isOwned ? ownedLabelSelector : "")) {
            InformerScope cachedScope = isOwned ? narrow(scope) : scope;
            SharedIndexInformer<?> informer;
            if (watch.metadata()) {
                SharedIndexInformer<PartialObjectMetadata> metadata = manager.informers()
                        .metadataInformerFor(watch.type().javaClass(), cachedScope);
                cached.metadata(watch.type(), metadata);
                informer = metadata;
            } else {
                informer = manager.informers().informerFor(watch.type(), cachedScope);
                cached.full(watch.type(), informer);
            }
            controller.watches((SharedIndexInformer<HasMetadata>) informer,
                    object -> watch.mapper().apply((O) object));
        }
    }

    /**
     * The scopes of {@code resource}'s informers, one per namespace (one for a cluster-scoped
     * resource): {@code selector} when set, else the manager's for the type.
     */
    private List<InformerScope> scopes(ResourceType<?> resource, String selector) {
        InformerScope defaults = cached.selectors(resource);
        String label = selector.isEmpty() ? defaults.labelSelector() : selector;
        List<String> where = resource.namespaced() && !namespaces.isEmpty()
                ? List.copyOf(new LinkedHashSet<>(namespaces)) : List.of("");
        return where.stream().map(ns -> new InformerScope(ns, label, defaults.fieldSelector())).toList();
    }

    private InformerScope narrow(InformerScope scope) {
        return extension == null ? scope : extension.narrow(scope);
    }

    private static <T extends HasMetadata> Lister<T> listerOf(List<SharedIndexInformer<T>> informers) {
        return Lister.union(informers.stream().map(SharedIndexInformer::lister).toList());
    }
}

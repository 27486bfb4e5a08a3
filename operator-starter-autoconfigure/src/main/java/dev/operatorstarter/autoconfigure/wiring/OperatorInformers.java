package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Decides which informers the reconcilers need: the primary resource in each watched namespace,
 * narrowed by the label selector; owned and watched resources in the same namespaces, without the
 * primary's selector (an owned ConfigMap does not carry its owner's labels) but with the
 * reconciler's {@code ownedLabelSelector} for owned ones; and for every resource the selectors of
 * {@code operator.informers.resources.<resource>}. The informers themselves come from the shared
 * factory, so equal scopes share one cache. A sharded reconciler's primary and owned informers
 * are narrowed to this replica's share ({@link ShardedReconcilers}); its watched ones are not.
 */
final class OperatorInformers {

    private static final OperatorProperties.ResourceCache NO_SELECTORS = new OperatorProperties.ResourceCache("", "");

    private final SharedInformerFactory factory;
    private final OperatorProperties.Informers properties;
    private final List<ReconcilerDefinition> definitions;
    private final UnaryOperator<String> placeholders;
    private final ShardedReconcilers shards;

    OperatorInformers(SharedInformerFactory factory, OperatorProperties.Informers properties,
            List<ReconcilerDefinition> definitions, UnaryOperator<String> placeholders, ShardedReconcilers shards) {
        this.factory = factory;
        this.properties = properties;
        this.definitions = List.copyOf(definitions);
        this.placeholders = placeholders;
        this.shards = shards;
        checkResourceNames();
    }

    /** Every key of {@code operator.informers.resources} must name a resource some reconciler informs on. */
    private void checkResourceNames() {
        Set<String> known = resourceNames(ReconcilerDefinition::informedResources);
        known.addAll(resourceNames(ReconcilerDefinition::metadataResources));
        unknown(properties.resources().keySet(), known).ifPresent(name -> {
            throw new IllegalStateException("operator.informers.resources[" + name + "] names no resource a "
                    + "reconciler informs on; the names are plural[.group]: " + String.join(", ", known));
        });
    }

    /**
     * The resources of {@code operator.reader.uncached}, checked: each must be one a reconciler
     * caches in full, the only ones the reader would read from a cache.
     */
    List<String> uncached(List<String> names) {
        Set<String> cached = resourceNames(ReconcilerDefinition::informedResources);
        List<String> stripped = names.stream().map(String::strip).toList();
        unknown(stripped, cached).ifPresent(name -> {
            throw new IllegalStateException("operator.reader.uncached names '" + name + "', which no reconciler "
                    + "caches in full (its reads go to the API server anyway); the names are plural[.group]: "
                    + (cached.isEmpty() ? "(none)" : String.join(", ", cached)));
        });
        return stripped;
    }

    /** The sorted {@linkplain #resourceName names} of the resources {@code resources} gives for every reconciler. */
    private Set<String> resourceNames(Function<ReconcilerDefinition, List<Class<? extends HasMetadata>>> resources) {
        Set<String> names = new TreeSet<>();
        definitions.forEach(definition -> resources.apply(definition).forEach(type -> names.add(resourceName(type))));
        return names;
    }

    private static Optional<String> unknown(Collection<String> names, Set<String> known) {
        return names.stream().filter(name -> !known.contains(name)).findFirst();
    }

    /** The name of {@code type} in {@code operator.informers.resources}: its plural, and its group outside the core. */
    static String resourceName(Class<? extends HasMetadata> type) {
        return ResourceType.of(type).groupVersionResource().groupResource();
    }

    /**
     * The scope of an informer of {@code type} in {@code namespace}: the first of the label
     * {@code selectors} that is set (placeholders resolved), else the one of
     * {@code operator.informers.resources.<resource>}; that property's field selector.
     */
    private InformerScope scope(String namespace, Class<? extends HasMetadata> type, String... selectors) {
        OperatorProperties.ResourceCache cache = properties.resources().getOrDefault(resourceName(type), NO_SELECTORS);
        String selector = Stream.concat(Arrays.stream(selectors), Stream.of(cache.labelSelector())).map(this::resolve)
                .filter(s -> !s.isEmpty()).findFirst().orElse("");
        return new InformerScope(namespace, selector, resolve(cache.fieldSelector()));
    }

    /**
     * The scope of an owned or watched {@code type} of {@code definition} in {@code namespace}:
     * owned types take the reconciler's {@code ownedLabelSelector} first.
     */
    private InformerScope secondaryScope(ReconcilerDefinition definition, Class<? extends HasMetadata> type,
            String namespace) {
        return scope(namespace, type, owns(definition, type) ? definition.annotation().ownedLabelSelector() : "");
    }

    private static boolean owns(ReconcilerDefinition definition, Class<? extends HasMetadata> type) {
        return definition.ownedResources().contains(type);
    }

    /** The scope of {@code definition}'s informer of an owned or watched {@code type}: owned ones narrowed to this replica's share when sharded. */
    private InformerScope cached(ReconcilerDefinition definition, Class<? extends HasMetadata> type, InformerScope scope) {
        return owns(definition, type) ? shards.narrow(definition, scope) : scope;
    }

    SharedInformerFactory factory() {
        return factory;
    }

    /** The scopes of {@code definition}'s primary resource, one per watched namespace, before any sharding. */
    List<InformerScope> primaryScopes(ReconcilerDefinition definition, Class<? extends HasMetadata> type) {
        return eachNamespace(definition, type,
                namespace -> scope(namespace, type, definition.annotation().labelSelector(), properties.labelSelector()));
    }

    /** The scopes of an owned or watched {@code type} of {@code definition}, one per watched namespace, before any sharding. */
    List<InformerScope> secondaryScopes(ReconcilerDefinition definition, Class<? extends HasMetadata> type) {
        return eachNamespace(definition, type, namespace -> secondaryScope(definition, type, namespace));
    }

    /** The primary informers of {@code definition}: one per watched namespace. */
    <T extends HasMetadata> List<SharedIndexInformer<T>> primaries(ReconcilerDefinition definition, Class<T> type) {
        return primaryScopes(definition, type).stream()
                .map(scope -> factory.informerFor(type, shards.narrow(definition, scope))).toList();
    }

    /** The informers of an owned or watched {@code type} for {@code definition}: one per watched namespace. */
    <O extends HasMetadata> List<SharedIndexInformer<O>> secondaries(ReconcilerDefinition definition, Class<O> type) {
        return secondaryScopes(definition, type).stream()
                .map(scope -> factory.informerFor(type, cached(definition, type, scope))).toList();
    }

    /** The metadata-only informers of an owned or watched {@code type} for {@code definition}: one per watched namespace. */
    List<SharedIndexInformer<PartialObjectMetadata>> metadataSecondaries(ReconcilerDefinition definition,
            Class<? extends HasMetadata> type) {
        return secondaryScopes(definition, type).stream()
                .map(scope -> factory.metadataInformerFor(type, cached(definition, type, scope))).toList();
    }

    private <I> List<I> eachNamespace(ReconcilerDefinition definition, Class<? extends HasMetadata> type,
            Function<String, I> informer) {
        return namespaces(definition, type).stream().map(informer).toList();
    }

    /** A lister over every metadata-only informer any reconciler has for {@code type}. */
    Lister<PartialObjectMetadata> metadataLister(Class<? extends HasMetadata> type) {
        return unionOf("the metadata of " + type.getName(), definition -> definition.metadataResources().contains(type)
                ? metadataSecondaries(definition, type) : List.of());
    }

    /** A lister over the primary informers of {@code definition} only (its namespaces and selector). */
    <T extends HasMetadata> Lister<T> primaryLister(ReconcilerDefinition definition, Class<T> type) {
        return listerOf(primaries(definition, type));
    }

    /** A lister over every informer any reconciler has for {@code type}. */
    <T extends HasMetadata> Lister<T> lister(Class<T> type) {
        return unionOf(type.getName(), definition -> {
            List<SharedIndexInformer<T>> informers = new ArrayList<>();
            if (definition.resource() == type) {
                informers.addAll(primaries(definition, type));
            }
            if (definition.owned().contains(type) || definition.watched().containsValue(type)) {
                informers.addAll(secondaries(definition, type));
            }
            return informers;
        });
    }

    /** A lister over the informers {@code informersOf} gives for every reconciler, each shared one once. */
    private <T extends HasMetadata> Lister<T> unionOf(String what,
            Function<ReconcilerDefinition, List<SharedIndexInformer<T>>> informersOf) {
        Set<SharedIndexInformer<T>> informers = new LinkedHashSet<>();
        definitions.forEach(definition -> informers.addAll(informersOf.apply(definition)));
        if (informers.isEmpty()) {
            throw new IllegalStateException("no reconciler informs on " + what);
        }
        return listerOf(informers);
    }

    private static <T extends HasMetadata> Lister<T> listerOf(Collection<SharedIndexInformer<T>> informers) {
        List<Lister<T>> listers = informers.stream().map(SharedIndexInformer::lister).toList();
        return Lister.union(listers);
    }

    /** The namespaces {@code definition} watches for {@code type}; [""] (all) for cluster-scoped types. */
    private List<String> namespaces(ReconcilerDefinition definition, Class<? extends HasMetadata> type) {
        return Namespaced.class.isAssignableFrom(type) ? watchedNamespaces(definition) : List.of("");
    }

    /** The namespaces {@code definition} watches its namespaced resources in; [""] for all. */
    List<String> watchedNamespaces(ReconcilerDefinition definition) {
        List<String> named = new ArrayList<>();
        for (String value : definition.annotation().namespaces()) {
            Arrays.stream(resolve(value).split(",")).map(String::strip).filter(s -> !s.isEmpty()).forEach(named::add);
        }
        if (named.isEmpty()) {
            properties.namespaces().stream().map(String::strip).filter(s -> !s.isEmpty()).forEach(named::add);
        }
        return named.isEmpty() ? List.of("") : List.copyOf(new LinkedHashSet<>(named));
    }

    private String resolve(String value) {
        String resolved = placeholders.apply(value);
        return resolved == null ? "" : resolved.strip();
    }
}

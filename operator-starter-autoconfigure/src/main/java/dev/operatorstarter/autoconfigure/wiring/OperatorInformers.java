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
import java.util.Collection;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Decides which informers the reconcilers need: the primary resource in each watched namespace,
 * narrowed by the label selector; owned and watched resources in the same namespaces, without the
 * primary's selector (an owned ConfigMap does not carry its owner's labels) but with the
 * reconciler's {@code ownedLabelSelector} for owned ones; and for every resource the selectors of
 * {@code operator.informers.resources.<resource>}. The informers themselves come from the shared
 * factory, so equal scopes share one cache.
 */
final class OperatorInformers {

    private final SharedInformerFactory factory;
    private final OperatorProperties.Informers properties;
    private final List<ReconcilerDefinition> definitions;
    private final UnaryOperator<String> placeholders;

    OperatorInformers(SharedInformerFactory factory, OperatorProperties.Informers properties,
            List<ReconcilerDefinition> definitions, UnaryOperator<String> placeholders) {
        this.factory = factory;
        this.properties = properties;
        this.definitions = List.copyOf(definitions);
        this.placeholders = placeholders;
        checkResourceNames();
    }

    /** Every key of {@code operator.informers.resources} must name a resource some reconciler informs on. */
    private void checkResourceNames() {
        Set<String> known = new TreeSet<>();
        for (ReconcilerDefinition definition : definitions) {
            definition.informedResources().forEach(type -> known.add(resourceName(type)));
            definition.metadataResources().forEach(type -> known.add(resourceName(type)));
        }
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
        Set<String> cached = new TreeSet<>();
        definitions.forEach(definition -> definition.informedResources()
                .forEach(type -> cached.add(resourceName(type))));
        List<String> stripped = names.stream().map(String::strip).toList();
        unknown(stripped, cached).ifPresent(name -> {
            throw new IllegalStateException("operator.reader.uncached names '" + name + "', which no reconciler "
                    + "caches in full (its reads go to the API server anyway); the names are plural[.group]: "
                    + (cached.isEmpty() ? "(none)" : String.join(", ", cached)));
        });
        return stripped;
    }

    private static Optional<String> unknown(Collection<String> names, Set<String> known) {
        return names.stream().filter(name -> !known.contains(name)).findFirst();
    }

    /** The name of {@code type} in {@code operator.informers.resources}: its plural, and its group outside the core. */
    static String resourceName(Class<? extends HasMetadata> type) {
        return ResourceType.of(type).groupVersionResource().groupResource();
    }

    private OperatorProperties.ResourceCache cacheOf(Class<? extends HasMetadata> type) {
        OperatorProperties.ResourceCache cache = properties.resources().get(resourceName(type));
        return cache != null ? cache : new OperatorProperties.ResourceCache("", "");
    }

    /** The scope of an owned or watched {@code type} of {@code definition} in {@code namespace}. */
    private InformerScope secondaryScope(ReconcilerDefinition definition, Class<? extends HasMetadata> type,
            String namespace) {
        OperatorProperties.ResourceCache cache = cacheOf(type);
        String selector = "";
        if (definition.owned().contains(type) || definition.ownedMetadata().contains(type)) {
            selector = resolve(definition.annotation().ownedLabelSelector());
        }
        if (selector.isEmpty()) {
            selector = resolve(cache.labelSelector());
        }
        return new InformerScope(namespace, selector, resolve(cache.fieldSelector()));
    }

    SharedInformerFactory factory() {
        return factory;
    }

    /** The primary informers of {@code definition}: one per watched namespace. */
    <T extends HasMetadata> List<SharedIndexInformer<T>> primaries(ReconcilerDefinition definition, Class<T> type) {
        String selector = resolve(definition.annotation().labelSelector());
        if (selector.isEmpty()) {
            selector = properties.labelSelector();
        }
        OperatorProperties.ResourceCache cache = cacheOf(type);
        if (selector.isEmpty()) {
            selector = resolve(cache.labelSelector());
        }
        List<SharedIndexInformer<T>> informers = new ArrayList<>();
        for (String namespace : namespaces(definition, type)) {
            informers.add(factory.informerFor(type, new InformerScope(namespace, selector,
                    resolve(cache.fieldSelector()))));
        }
        return informers;
    }

    /** The informers of an owned or watched {@code type} for {@code definition}: one per watched namespace. */
    <O extends HasMetadata> List<SharedIndexInformer<O>> secondaries(ReconcilerDefinition definition, Class<O> type) {
        List<SharedIndexInformer<O>> informers = new ArrayList<>();
        for (String namespace : namespaces(definition, type)) {
            informers.add(factory.informerFor(type, secondaryScope(definition, type, namespace)));
        }
        return informers;
    }

    /** The metadata-only informers of an owned or watched {@code type} for {@code definition}: one per watched namespace. */
    List<SharedIndexInformer<PartialObjectMetadata>> metadataSecondaries(ReconcilerDefinition definition,
            Class<? extends HasMetadata> type) {
        List<SharedIndexInformer<PartialObjectMetadata>> informers = new ArrayList<>();
        for (String namespace : namespaces(definition, type)) {
            informers.add(factory.metadataInformerFor(type, secondaryScope(definition, type, namespace)));
        }
        return informers;
    }

    /** A lister over every metadata-only informer any reconciler has for {@code type}. */
    Lister<PartialObjectMetadata> metadataLister(Class<? extends HasMetadata> type) {
        Set<SharedIndexInformer<PartialObjectMetadata>> informers = new LinkedHashSet<>();
        for (ReconcilerDefinition definition : definitions) {
            if (definition.metadataResources().contains(type)) {
                informers.addAll(metadataSecondaries(definition, type));
            }
        }
        if (informers.isEmpty()) {
            throw new IllegalStateException("no reconciler informs on the metadata of " + type.getName());
        }
        return listerOf(informers);
    }

    /** A lister over the primary informers of {@code definition} only (its namespaces and selector). */
    <T extends HasMetadata> Lister<T> primaryLister(ReconcilerDefinition definition, Class<T> type) {
        return listerOf(primaries(definition, type));
    }

    /** A lister over every informer any reconciler has for {@code type}. */
    <T extends HasMetadata> Lister<T> lister(Class<T> type) {
        Set<SharedIndexInformer<T>> informers = new LinkedHashSet<>();
        for (ReconcilerDefinition definition : definitions) {
            if (definition.resource() == type) {
                informers.addAll(primaries(definition, type));
            }
            if (definition.owned().contains(type) || definition.watched().containsValue(type)) {
                informers.addAll(secondaries(definition, type));
            }
        }
        if (informers.isEmpty()) {
            throw new IllegalStateException("no reconciler informs on " + type.getName());
        }
        return listerOf(informers);
    }

    private static <T extends HasMetadata> Lister<T> listerOf(Collection<SharedIndexInformer<T>> informers) {
        List<Lister<T>> listers = informers.stream().map(SharedIndexInformer::lister).toList();
        return Lister.union(listers);
    }

    /** The namespaces {@code definition} watches for {@code type}; [""] (all) for cluster-scoped types. */
    private List<String> namespaces(ReconcilerDefinition definition, Class<? extends HasMetadata> type) {
        if (!Namespaced.class.isAssignableFrom(type)) {
            return List.of("");
        }
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

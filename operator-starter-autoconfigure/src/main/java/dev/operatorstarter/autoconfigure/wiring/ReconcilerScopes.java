package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.OperatorProperties;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.manager.ManagedControllerBuilder;
import dev.operatorstarter.manager.ManagerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
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

/**
 * Turns the scope parts of {@code @Reconciler} and {@code operator.informers.*} into the runtime's
 * controller builder calls, placeholders resolved: the namespaces (the annotation's, else
 * {@code operator.informers.namespaces}, else all), the primary's label selector (the annotation's,
 * else {@code operator.informers.label-selector}), the owned label selector, and each resource's
 * selectors ({@code operator.informers.resources.<resource>}). The scope rules themselves are the
 * runtime's ({@link ManagedControllerBuilder}).
 */
final class ReconcilerScopes {

    private final OperatorProperties.Informers properties;
    private final List<ReconcilerDefinition> definitions;
    private final UnaryOperator<String> placeholders;

    ReconcilerScopes(OperatorProperties.Informers properties, List<ReconcilerDefinition> definitions,
            UnaryOperator<String> placeholders) {
        this.properties = properties;
        this.definitions = List.copyOf(definitions);
        this.placeholders = placeholders;
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

    /** Gives {@code manager} the selectors of {@code operator.informers.resources} for every resource a reconciler caches. */
    void selectors(ManagerBuilder manager) {
        Set<Class<? extends HasMetadata>> types = new LinkedHashSet<>();
        definitions.forEach(definition -> {
            types.addAll(definition.informedResources());
            types.addAll(definition.metadataResources());
        });
        for (Class<? extends HasMetadata> type : types) {
            OperatorProperties.ResourceCache cache = properties.resources().get(resourceName(type));
            if (cache != null) {
                manager.selectors(type, resolve(cache.labelSelector()), resolve(cache.fieldSelector()));
            }
        }
    }

    /** Sets {@code definition}'s namespaces and label selectors on {@code controller}. */
    void scope(ReconcilerDefinition definition, ManagedControllerBuilder<?> controller) {
        String selector = resolve(definition.annotation().labelSelector());
        controller.namespaces(watchedNamespaces(definition))
                .labelSelector(selector.isEmpty() ? resolve(properties.labelSelector()) : selector)
                .ownedLabelSelector(resolve(definition.annotation().ownedLabelSelector()));
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

    private String resolve(String value) {
        String resolved = placeholders.apply(value);
        return resolved == null ? "" : resolved.strip();
    }
}

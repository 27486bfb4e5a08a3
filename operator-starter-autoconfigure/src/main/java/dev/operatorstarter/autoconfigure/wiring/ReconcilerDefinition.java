package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.Reconciler;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the {@link ReconcilerRegistrar} learned about one {@link Reconciler} bean before any bean
 * exists: its resource, the resources it owns and watches, and its annotation.
 *
 * @param beanName the reconciler bean
 * @param annotation its annotation
 * @param resource the primary resource's class
 * @param owned the classes of {@link Reconciler#owns()}
 * @param ownedMetadata the classes of {@link Reconciler#ownsMetadata()}, cached as metadata only
 * @param watched each {@link dev.operatorstarter.autoconfigure.RequestMapper} class of {@link Reconciler#watches()} with the resource it maps
 * @param watchedMetadata each {@link dev.operatorstarter.autoconfigure.MetadataRequestMapper} class of
 *     {@link Reconciler#watchesMetadata()} with the resource it maps, cached as metadata only
 */
record ReconcilerDefinition(String beanName, Reconciler annotation, Class<? extends HasMetadata> resource,
        List<Class<? extends HasMetadata>> owned, List<Class<? extends HasMetadata>> ownedMetadata,
        Map<Class<?>, Class<? extends HasMetadata>> watched, Map<Class<?>, Class<? extends HasMetadata>> watchedMetadata) {

    ReconcilerDefinition {
        owned = List.copyOf(owned);
        ownedMetadata = List.copyOf(ownedMetadata);
        watched = Collections.unmodifiableMap(new LinkedHashMap<>(watched));
        watchedMetadata = Collections.unmodifiableMap(new LinkedHashMap<>(watchedMetadata));
    }

    /** The controller's name: the annotation's, else the kind in lower case. */
    String controllerName() {
        return annotation.name().isEmpty() ? HasMetadata.getKind(resource).toLowerCase(Locale.ROOT) : annotation.name();
    }

    /** Every resource this reconciler owns, cached in full or as metadata only: metadata-only ones first. */
    List<Class<? extends HasMetadata>> ownedResources() {
        List<Class<? extends HasMetadata>> all = new ArrayList<>(ownedMetadata);
        owned.stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }

    /** Every resource this reconciler informs on with full objects, the primary first. */
    List<Class<? extends HasMetadata>> informedResources() {
        List<Class<? extends HasMetadata>> all = new ArrayList<>();
        all.add(resource);
        owned.stream().filter(type -> !all.contains(type)).forEach(all::add);
        watched.values().stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }

    /** Every resource this reconciler informs on as metadata only, owned ones first. */
    List<Class<? extends HasMetadata>> metadataResources() {
        List<Class<? extends HasMetadata>> all = new ArrayList<>(ownedMetadata);
        watchedMetadata.values().stream().filter(type -> !all.contains(type)).forEach(all::add);
        return all;
    }
}

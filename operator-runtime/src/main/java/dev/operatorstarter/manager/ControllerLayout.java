package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;

/**
 * What a {@link ManagedControllerBuilder} decided for one controller, as a {@link ControllerExtension} sees it.
 *
 * @param controller the controller's name
 * @param type the primary resource
 * @param primaryScopes the primary informers' scopes, one per namespace, before the extension narrowed them
 * @param ownedScopes each owned resource's scopes, one per namespace, before the extension narrowed them
 * @param ownedInformers the informers of owned objects, over the narrowed scopes
 * @param watched the resources the controller watches through a mapper
 */
public record ControllerLayout<T extends HasMetadata>(String controller, ResourceType<T> type,
        List<InformerScope> primaryScopes, Map<ResourceType<?>, List<InformerScope>> ownedScopes,
        List<SharedIndexInformer<?>> ownedInformers, List<ResourceType<?>> watched) {

    public ControllerLayout {
        primaryScopes = List.copyOf(primaryScopes);
        ownedScopes = Map.copyOf(ownedScopes);
        ownedInformers = List.copyOf(ownedInformers);
        watched = List.copyOf(watched);
    }
}

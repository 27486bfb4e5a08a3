package dev.operatorstarter.manager;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerDecorator;
import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Shapes a controller as {@link ManagedControllerBuilder#reconcile} builds it, for a capability
 * above the manager (the sharding is one): which group the controller runs in, how its primary and
 * owned informers are narrowed, the decorator it is wrapped in, and what happens once it is built.
 * Given with {@link ManagedControllerBuilder#extendedBy}.
 */
public interface ControllerExtension {

    /** The group the controller runs in instead of {@link RunnableGroup#LEADER_TERM}. */
    RunnableGroup group();

    /** The scope of a primary or owned informer, from the scope the controller would have without this extension. */
    InformerScope narrow(InformerScope scope);

    /**
     * The decorator of the controller described by {@code layout} (its informers are made, the
     * controller is not built yet).
     *
     * @throws IllegalArgumentException when the controller cannot be extended so; the message says why
     *     (the builder reports it as an {@link ExtensionRefusedException})
     */
    <T extends HasMetadata> ControllerDecorator<T> decorate(ControllerLayout<T> layout);

    /**
     * Takes the built controller (before the manager adds it).
     *
     * @throws IllegalArgumentException when the controller cannot be extended so
     */
    void adopt(Controller<?> controller);
}

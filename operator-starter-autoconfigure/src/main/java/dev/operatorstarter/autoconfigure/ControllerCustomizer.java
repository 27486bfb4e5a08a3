package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.controller.ControllerOptions;

/**
 * Customizes the options of each controller made for a {@link Reconciler} bean (rate limiter,
 * timeouts, thread factory) after the properties and the annotation were applied.
 */
@FunctionalInterface
public interface ControllerCustomizer {

    /**
     * @param controller the controller's name (see {@link Reconciler#name()})
     * @param options its options so far
     */
    void customize(String controller, ControllerOptions.Builder options);
}

package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.cache.InformerOptions;

/**
 * Customizes the options of the auto-configured shared informer factory (transform, reflector
 * settings, thread factory) after the {@code operator.informers.*} properties were applied.
 */
@FunctionalInterface
public interface InformerCustomizer {

    void customize(InformerOptions.Builder options);
}

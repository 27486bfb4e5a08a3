package dev.operatorstarter.autoconfigure;

import dev.operatorstarter.client.rest.ClientOptions;

/**
 * Customizes the auto-configured client's options (interceptors, user agent, retries) after the
 * {@code operator.client.*} properties were applied. Every bean of this type is called, in
 * {@link org.springframework.core.annotation.Order} order.
 */
@FunctionalInterface
public interface KubernetesClientCustomizer {

    void customize(ClientOptions.Builder options);
}

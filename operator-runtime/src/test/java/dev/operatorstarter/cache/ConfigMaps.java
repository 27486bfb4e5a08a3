package dev.operatorstarter.cache;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

/** The objects of the cache's tests. */
final class ConfigMaps {

    private ConfigMaps() {
    }

    static ConfigMap configMap(String namespace, String name, String resourceVersion) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .withResourceVersion(resourceVersion).endMetadata().build();
    }
}

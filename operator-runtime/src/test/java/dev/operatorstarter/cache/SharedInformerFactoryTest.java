package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.testing.FakeListerWatcher;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.URI;
import org.junit.jupiter.api.Test;

/** What the factory tells about the informers it made, without an API server (none is started). */
class SharedInformerFactoryTest {

    @Test
    void itNamesTheResourceOfEachInformerItMadeAndOfNoOther() {
        try (KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
                TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));
                SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class, InformerScope.namespace("ns"));
            SharedIndexInformer<?> deployments = factory.metadataInformerFor(Deployment.class, InformerScope.all());
            SharedIndexInformer<ConfigMap> elsewhere = SharedIndexInformer.create("configmaps",
                    new FakeListerWatcher<ConfigMap>(), ConfigMap.class, InformerOptions.defaults());

            assertThat(factory.resourceOf(configMaps)).contains(ResourceType.of(ConfigMap.class).groupVersionResource());
            assertThat(factory.resourceOf(deployments)).contains(ResourceType.of(Deployment.class).groupVersionResource());
            assertThat(factory.resourceOf(elsewhere)).isEmpty();
        }
    }
}

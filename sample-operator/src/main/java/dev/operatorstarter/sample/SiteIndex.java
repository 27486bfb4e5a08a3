package dev.operatorstarter.sample;

import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A directory of every site's address, kept in one ConfigMap in the operator's own namespace: one
 * key {@code <namespace>_<name>} per site (an underscore never occurs in either part).
 *
 * <p>This is the clean-up that owner references cannot do, and why the sample has a finalizer:
 * an owner reference cannot point across namespaces, so the garbage collector would never remove
 * a deleted site's entry. Both operations are idempotent merge patches of one key, so sites in
 * different controllers' workers never overwrite each other's entries.
 */
final class SiteIndex {

    private final Lister.NamespaceLister<ConfigMap> cache;
    private final ResourceClient<ConfigMap> configMaps;
    private final String name;

    /**
     * @param cache the operator's ConfigMap cache, read first; empty when it does not watch {@code namespace}
     * @param client writes, and reads when the cache does not have the entry
     */
    SiteIndex(Lister<ConfigMap> cache, KubernetesClient client, String namespace, String name) {
        this.cache = cache.namespace(namespace);
        this.configMaps = client.coreV1().configMaps().inNamespace(namespace);
        this.name = name;
    }

    static String key(StaticSite site) {
        return site.getMetadata().getNamespace() + "_" + site.getMetadata().getName();
    }

    /**
     * Records {@code url} as {@code site}'s address. Every reconcile calls this, so it sends no
     * request when the cached index already has the entry; otherwise it reads the index from the
     * API server (the cache may lag, or not watch the index's namespace) and writes only a change.
     */
    void publish(StaticSite site, String url) {
        if (cache.get(name).map(cached -> url.equals(entries(cached).get(key(site)))).orElse(false)) {
            return;
        }
        Optional<ConfigMap> index = configMaps.find(name);
        if (index.isPresent() && url.equals(entries(index.get()).get(key(site)))) {
            return;
        }
        if (index.isEmpty()) {
            try {
                configMaps.create(new ConfigMapBuilder().withNewMetadata().withName(name)
                        .addToLabels(SiteResources.MANAGED_BY_LABEL, SampleOperatorApplication.NAME).endMetadata()
                        .addToData(key(site), url).build());
                return;
            } catch (ApiException.AlreadyExists raced) {
                // another worker created it a moment ago: add the entry to theirs
            }
        }
        patch(key(site), url);
    }

    /** Removes {@code site}'s entry, if there is one. */
    void unpublish(StaticSite site) {
        Optional<ConfigMap> index = configMaps.find(name);
        if (index.isPresent() && entries(index.get()).containsKey(key(site))) {
            patch(key(site), null);
        }
    }

    private void patch(String key, @Nullable String value) {
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        ObjectNode data = patch.putObject("data");
        if (value == null) {
            data.putNull(key); // a JSON merge patch removes a key whose value is null
        } else {
            data.put(key, value);
        }
        // sent as text: the client's mapper leaves null map values out, which would make removal a no-op
        configMaps.patch(name, PatchType.MERGE, patch.toString());
    }

    private static Map<String, String> entries(ConfigMap index) {
        return index.getData() == null ? Map.of() : index.getData();
    }
}

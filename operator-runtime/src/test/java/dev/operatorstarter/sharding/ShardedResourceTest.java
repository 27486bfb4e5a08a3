package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.cache.IndexFunction;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.client.ResourceType;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the assigner watches for one sharded controller, and the owner key its children are indexed by. */
class ShardedResourceTest {

    private static final ResourceType<ConfigMap> CONFIG_MAPS = ResourceType.of(ConfigMap.class);
    private static final InformerScope NS = InformerScope.namespace("ns");

    @Test
    void owningAddsAnOwnedResourceToACopy() {
        ShardedResource<ConfigMap> alone = ShardedResource.of(CONFIG_MAPS, List.of(NS));
        ShardedResource<ConfigMap> owning = alone.owning(ResourceType.of(Deployment.class).groupVersionResource(),
                List.of(NS.withLabelSelector("app=site")));

        assertThat(alone.owned()).isEmpty();
        assertThat(owning.owned()).extracting(owned -> owned.resource().groupResource()).containsExactly("deployments.apps");
        assertThat(owning.ownerIndex()).isEqualTo("sharding.operatorstarter.dev/owner:configmaps");
    }

    @Test
    void aResourceWithoutScopesIsRefused() {
        assertThatThrownBy(() -> ShardedResource.of(CONFIG_MAPS, List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("InformerScope.all()");
    }

    @Test
    void aChildIsIndexedByTheKeyOfItsControllingOwnerOfThePrimarysKindOnly() {
        IndexFunction<HasMetadata> owners = ShardedResource.of(CONFIG_MAPS, List.of(NS)).ownerKeys();

        assertThat(owners.values(child("v1", "ConfigMap", true))).containsExactly("ns/site");
        assertThat(owners.values(child("v1", "ConfigMap", false))).as("not its controller").isEmpty();
        assertThat(owners.values(child("apps/v1", "Deployment", true))).as("another kind").isEmpty();
        assertThat(owners.values(new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("plain")
                .endMetadata().build())).isEmpty();
    }

    @Test
    void theChildOfAClusterScopedPrimaryIsIndexedByItsOwnersName() {
        IndexFunction<HasMetadata> owners = ShardedResource.of(ResourceType.of(Namespace.class),
                List.of(InformerScope.all())).ownerKeys();
        Namespace owner = new NamespaceBuilder().withNewMetadata().withName("team").withUid("u").endMetadata().build();
        ConfigMap child = new ConfigMapBuilder().withNewMetadata().withNamespace("team").withName("quota")
                .addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1").withKind("Namespace")
                        .withName(owner.getMetadata().getName()).withUid("u").withController(true).build())
                .endMetadata().build();

        assertThat(owners.values(child)).containsExactly("team");
    }

    private static ConfigMap child(String apiVersion, String kind, boolean controller) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace("ns").withName("site-content")
                .addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion(apiVersion).withKind(kind)
                        .withName("site").withUid("u").withController(controller).build())
                .endMetadata().build();
    }
}

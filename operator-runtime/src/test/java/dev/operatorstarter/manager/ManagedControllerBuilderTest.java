package dev.operatorstarter.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.Lister;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.client.config.Credentials;
import dev.operatorstarter.client.config.TlsSettings;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The scope rules the front door applies, read off the informers it makes; running them is {@code PlainJavaOperatorIT}'s. */
class ManagedControllerBuilderTest {

    private final KubernetesClient client = KubernetesClient.create(new ClientConfig(URI.create("https://127.0.0.9:9"),
            TlsSettings.defaults(), Credentials.none(), null, "x", "a test"));
    private final Manager manager = Manager.builder(client)
            .selectors(Service.class, "tier=web", "metadata.name!=kubernetes")
            .selectors(Secret.class, "owned-by=anyone", "").build();

    @AfterEach
    void close() {
        manager.close();
        client.close();
    }

    private List<InformerScope> scopesOf(String resource, boolean metadata) {
        return manager.informers().informers().stream()
                .filter(informer -> manager.informers().resourceOf(informer).orElseThrow().resource().equals(resource))
                .filter(informer -> informer.name().contains("(metadata)") == metadata)
                .map(informer -> manager.informers().scopeOf(informer).orElseThrow()).toList();
    }

    @Test
    void eachNamespacedResourceIsCachedOncePerNamespaceAndAClusterScopedOneOnce() {
        Controller<ConfigMap> controller = manager.controller(ConfigMap.class).namespaces("a", " ", "b", "a")
                .owns(Secret.class).watches(Namespace.class, namespace -> List.of())
                .reconcile(request -> ReconcileResult.done());

        assertThat(controller.name()).isEqualTo("configmap");
        assertThat(controller.primaries()).hasSize(2);
        assertThat(scopesOf("configmaps", false)).extracting(InformerScope::namespace).containsExactly("a", "b");
        assertThat(scopesOf("secrets", false)).extracting(InformerScope::namespace).containsExactly("a", "b");
        assertThat(scopesOf("namespaces", false)).extracting(InformerScope::namespace).containsExactly("");
    }

    @Test
    void thePrimaryAndTheOwnedTakeTheirOwnSelectorsFirstAndWatchedOnesTheManagers() {
        manager.controller(ConfigMap.class).labelSelector("app=mirror").ownedLabelSelector("managed=yes")
                .owns(Secret.class).watches(Service.class, service -> List.of())
                .reconcile(request -> ReconcileResult.done());

        assertThat(scopesOf("configmaps", false)).extracting(InformerScope::labelSelector).containsExactly("app=mirror");
        assertThat(scopesOf("secrets", false)).extracting(InformerScope::labelSelector).containsExactly("managed=yes");
        assertThat(scopesOf("services", false)).extracting(InformerScope::labelSelector, InformerScope::fieldSelector)
                .containsExactly(tuple("tier=web", "metadata.name!=kubernetes"));
    }

    @Test
    void ownedTypesWithoutTheControllersSelectorTakeTheManagersAndMetadataOnlyOnesAreCachedAsMetadata() {
        manager.controller(ConfigMap.class).owns(Secret.class).ownsMetadata(ServiceAccount.class)
                .reconcile(request -> ReconcileResult.done());

        assertThat(scopesOf("secrets", false)).extracting(InformerScope::labelSelector).containsExactly("owned-by=anyone");
        assertThat(scopesOf("serviceaccounts", true)).hasSize(1);
        assertThat(scopesOf("serviceaccounts", false)).isEmpty();
        assertThat(manager.metadataLister(ServiceAccount.class).list()).isEmpty();
    }

    @Test
    void equalScopesShareOneInformerAndTheListerCoversEveryControllersCacheOfAType() {
        Controller<ConfigMap> first = manager.controller(ConfigMap.class).named("first").namespaces("a")
                .reconcile(request -> ReconcileResult.done());
        Controller<ConfigMap> second = manager.controller(ConfigMap.class).named("second").namespaces("a", "b")
                .reconcile(request -> ReconcileResult.done());

        assertThat(second.primaries().get(0)).isSameAs(first.primaries().get(0));
        assertThat(manager.informers().informers()).hasSize(2);
        assertThat(manager.controllers()).extracting(ControllerStatus::name, ControllerStatus::resource,
                ControllerStatus::group).containsExactly(tuple("first", "configmaps", RunnableGroup.LEADER_TERM),
                        tuple("second", "configmaps", RunnableGroup.LEADER_TERM));
        assertThat(manager.lister(ConfigMap.class).list()).isEmpty();
        assertThatThrownBy(() -> manager.lister(Secret.class).list()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no controller of the manager caches");
    }

    @Test
    void aControllerMayRunOnEveryReplicaButNotInTheMemberTermsOfItsOwn() {
        manager.controller(ConfigMap.class).runIn(RunnableGroup.ALWAYS).reconcile(request -> ReconcileResult.done());

        assertThat(manager.controllers()).singleElement()
                .satisfies(status -> assertThat(status.group()).isEqualTo(RunnableGroup.ALWAYS));
        assertThatThrownBy(() -> manager.controller(ConfigMap.class).runIn(RunnableGroup.MEMBER_TERM))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("from an extension");
    }

    @Test
    void aBuilderBuildsOnceAndNothingIsAddedAfterTheManagerClosed() {
        ManagedControllerBuilder<ConfigMap> builder = manager.controller(ConfigMap.class);
        builder.reconcile(request -> ReconcileResult.done());
        assertThatThrownBy(() -> builder.reconcile(request -> ReconcileResult.done()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already");

        manager.close();
        assertThatThrownBy(() -> manager.controller(Secret.class).reconcile(request -> ReconcileResult.done()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("before the manager starts");
        assertThat(scopesOf("secrets", false)).as("no informer made for a refused controller").isEmpty();
    }

    @Test
    void aListerMadeBeforeItsControllerReadsTheCachesTheControllerMakesLater() {
        Lister<ConfigMap> early = manager.lister(ConfigMap.class);
        assertThatThrownBy(early::list).isInstanceOf(IllegalStateException.class).hasMessageContaining("(yet)");

        Controller<ConfigMap> controller = manager.controller(ConfigMap.class).namespaces("a")
                .reconcile(request -> ReconcileResult.done());
        controller.primaries().get(0).indexer().add(new ConfigMapBuilder().withNewMetadata().withNamespace("a")
                .withName("seen").endMetadata().build());

        assertThat(early.namespace("a").get("seen")).isPresent();
        assertThat(early.list()).hasSize(1);
    }

    @Test
    void aTrackedClientMadeBeforeTheControllerWritesOnlyOnceItIsBuilt() {
        ManagedControllerBuilder<ConfigMap> builder = manager.controller(ConfigMap.class);
        ResourceClient<ConfigMap> tracked = builder.tracked(client.coreV1().configMaps());

        assertThat(tracked.type()).isEqualTo(client.coreV1().configMaps().type());
        assertThatThrownBy(() -> tracked.inNamespace("a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("controller configmap is not built yet");

        builder.reconcile(request -> ReconcileResult.done());
        assertThat(tracked.inNamespace("a").type()).isEqualTo(tracked.type());
    }

    @Test
    void theFinalizerNeedsAName() {
        assertThatThrownBy(() -> manager.controller(ConfigMap.class).finalizer(" ", object -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a finalizer needs a name");
    }

    @Test
    void aResourceIsCachedInFullOrAsMetadataNotBothAndARefusedControllerMakesNoInformer() {
        assertThatThrownBy(() -> manager.controller(ConfigMap.class).owns(Secret.class)
                .watchesMetadata(Secret.class, object -> List.of()).reconcile(request -> ReconcileResult.done()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("controller configmap has "
                        + Secret.class.getName() + " in both owns and watchesMetadata; keep it in one (watchesMetadata "
                        + "caches only its metadata, owns whole objects)");
        assertThatThrownBy(() -> manager.controller(ConfigMap.class).watches(Secret.class, object -> List.of())
                .ownsMetadata(Secret.class).reconcile(request -> ReconcileResult.done()))
                .hasMessageContaining("in both watches and ownsMetadata");
        assertThat(scopesOf("configmaps", false)).isEmpty();
    }

    @Test
    void selectorsForAResourceNoControllerCachesKeepTheManagerFromStarting() {
        try (Manager misspelt = Manager.builder(client).selectors("configmap", "app=web", "").build()) {
            misspelt.controller(ConfigMap.class).reconcile(request -> ReconcileResult.done());

            assertThatThrownBy(misspelt::start).isInstanceOf(IllegalStateException.class)
                    .hasMessage("selectors were given for 'configmap', which no controller of the manager caches; "
                            + "the names are plural[.group]: configmaps");
            assertThat(misspelt.isActive()).as("nothing started").isFalse();
        }
    }
}

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.Gadget;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.RequestMatcher;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Metadata-only informers against the real API server: built-in types, custom resources, owners. */
@KubernetesTest(crds = "crds/gadgets.yaml")
@ExtendWith(AdminClientExtension.class)
class MetadataInformerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    /** The informers' options: the initial list by a streaming watch, or by a plain list. */
    private static InformerOptions options(boolean streamingList) {
        return InformerOptions.builder().reflector(ReflectorOptions.builder().streamingList(streamingList).build())
                .build();
    }

    @ParameterizedTest(name = "streaming list: {0}")
    @ValueSource(booleans = {true, false})
    void aMetadataInformerCachesNamesLabelsAndVersionsAndFollowsChanges(boolean streamingList,
            KubernetesClient client, TestNamespace namespace) throws Exception {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("a").addToLabels("tier", "web")
                .endMetadata().addToData("payload", "x".repeat(4096)).build());
        try (SharedInformerFactory factory = new SharedInformerFactory(client, options(streamingList))) {
            SharedIndexInformer<PartialObjectMetadata> informer = factory.metadataInformerFor(ConfigMap.class,
                    InformerScope.namespace(namespace.name()));
            assertThat(informer.name()).isEqualTo("configmaps/" + namespace.name() + " (metadata)");
            assertThat(factory.informerFor(ConfigMap.class, InformerScope.namespace(namespace.name())))
                    .as("the full informer is another one").isNotSameAs(informer);
            factory.start();
            factory.waitForCacheSync(WAIT);

            PartialObjectMetadata cached = informer.lister().namespace(namespace.name()).get("a").orElseThrow();
            assertThat(cached.getApiVersion() + " " + cached.getKind())
                    .as("listed: the resource's own apiVersion and kind, as controller-runtime sets them")
                    .isEqualTo("v1 ConfigMap");
            assertThat(cached.getMetadata().getLabels()).containsEntry("tier", "web");
            assertThat(cached.getMetadata().getResourceVersion()).isNotEmpty();
            assertThat(cached.getMetadata().getManagedFields()).as("stripped like full objects").isNullOrEmpty();

            configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("b").endMetadata().build());
            configMaps.delete("a");
            await().atMost(WAIT).until(() -> informer.lister().namespace(namespace.name()).get("a").isEmpty()
                    && informer.lister().namespace(namespace.name()).get("b").isPresent());
            PartialObjectMetadata watched = informer.lister().namespace(namespace.name()).get("b").orElseThrow();
            assertThat(watched.getApiVersion() + " " + watched.getKind()).as("watched").isEqualTo("v1 ConfigMap");
        }
    }

    @Test
    void aCustomResourceCanBeInformedAsMetadataByItsGroupVersionResource(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        Gadget gadget = new Gadget();
        gadget.getMetadata().setName("g1");
        gadget.getSpec().put("size", 3);
        client.resources(Gadget.class).inNamespace(namespace.name()).create(gadget);
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<PartialObjectMetadata> gadgets = factory.metadataInformerFor(
                    new GroupVersionResource("runtime.operatorstarter.dev", "v1", "gadgets"),
                    InformerScope.namespace(namespace.name()));
            factory.start();
            factory.waitForCacheSync(WAIT);
            assertThat(gadgets.lister().namespace(namespace.name()).get("g1")).get()
                    .satisfies(object -> assertThat(object.getApiVersion() + " " + object.getKind())
                            .as("found by discovery").isEqualTo("runtime.operatorstarter.dev/v1 Gadget"));
            Gadget later = new Gadget();
            later.getMetadata().setName("g2");
            later.getSpec().put("size", 4);
            client.resources(Gadget.class).inNamespace(namespace.name()).create(later);
            await().atMost(WAIT).until(() -> gadgets.lister().namespace(namespace.name()).get("g2").isPresent());
            assertThat(gadgets.lister().namespace(namespace.name()).get("g2")).get()
                    .satisfies(object -> assertThat(object.getApiVersion() + " " + object.getKind())
                            .as("watched").isEqualTo("runtime.operatorstarter.dev/v1 Gadget"));
        }
    }

    @Test
    void anOwnedTypeCachedAsMetadataStillReconcilesItsOwner(KubernetesClient client,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        Gadget gadget = new Gadget();
        gadget.getMetadata().setName("owner");
        gadget.getSpec().put("size", 1);
        Gadget created = client.resources(Gadget.class).inNamespace(ns).create(gadget);
        ConfigMap owned = new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName("owner-config").endMetadata()
                .addToData("k", "v").build();
        OwnerReferences.setController(created, owned);
        client.coreV1().configMaps().inNamespace(ns).create(owned);

        List<String> reconciled = new CopyOnWriteArrayList<>();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<Gadget> gadgets = factory.informerFor(Gadget.class, InformerScope.namespace(ns));
            SharedIndexInformer<PartialObjectMetadata> configMaps = factory.metadataInformerFor(ConfigMap.class,
                    InformerScope.namespace(ns));
            factory.start();
            Controller<Gadget> controller = Controller.builder(ControllerOptions.builder("metadata-owner").build(),
                    ResourceType.of(Gadget.class), gadgets).owns(configMaps).build(request -> {
                        // what this reconcile saw of the owned object's metadata
                        boolean touched = configMaps.lister().namespace(ns).get("owner-config")
                                .map(cached -> cached.getMetadata().getLabels() != null
                                        && cached.getMetadata().getLabels().containsKey("touched"))
                                .orElse(false);
                        reconciled.add(request.name() + (touched ? " after the change" : ""));
                        return ReconcileResult.done();
                    });
            controller.start();
            try {
                await().atMost(WAIT).until(() -> reconciled.contains("owner"));
                client.coreV1().configMaps().inNamespace(ns).patch("owner-config",
                        dev.operatorstarter.client.rest.PatchType.MERGE,
                        Map.of("metadata", Map.of("labels", Map.of("touched", "yes"))));
                // only a reconcile that ran once the metadata cache held the change can see it
                await().atMost(WAIT).until(() -> reconciled.contains("owner after the change"));
                assertThat(reconciled).allMatch(name -> name.startsWith("owner"));
            } finally {
                controller.stop(Duration.ofSeconds(5));
            }
        }
    }

    @ParameterizedTest(name = "streaming list: {0}")
    @ValueSource(booleans = {true, false})
    void aServerThatIgnoresTheNegotiationSendsFullObjectsWhichAreCachedAsTheirMetadata(boolean streamingList,
            KubernetesClient client, ClusterConnection connection, TestNamespace namespace) throws Exception {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("full").addToLabels("tier", "db")
                .endMetadata().addToData("payload", "y".repeat(1024)).build());
        try (FaultProxy proxy = FaultProxy.start(connection);
                KubernetesClient proxied = KubernetesClient.create(
                        KubeconfigLoader.load(proxy.connection().kubeconfig(), null))) {
            // Every request reaches the API server asking for plain JSON, as an aggregated API that
            // does not offer PartialObjectMetadata would answer.
            proxy.inject(RequestMatcher.pathPrefix("/api/v1/namespaces/" + namespace.name() + "/configmaps"),
                    Fault.requestHeader("Accept", "application/json"));
            try (SharedInformerFactory factory = new SharedInformerFactory(proxied, options(streamingList))) {
                SharedIndexInformer<PartialObjectMetadata> informer = factory.metadataInformerFor(ConfigMap.class,
                        InformerScope.namespace(namespace.name()));
                factory.start();
                factory.waitForCacheSync(WAIT);
                PartialObjectMetadata cached = informer.lister().namespace(namespace.name()).get("full").orElseThrow();
                assertThat(cached.getApiVersion() + " " + cached.getKind()).as("listed as a full object")
                        .isEqualTo("v1 ConfigMap");
                assertThat(cached.getMetadata().getLabels()).containsEntry("tier", "db");

                configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("later").endMetadata().build());
                await().atMost(WAIT).until(() -> informer.lister().namespace(namespace.name()).get("later").isPresent());
                PartialObjectMetadata watched = informer.lister().namespace(namespace.name()).get("later")
                        .orElseThrow();
                assertThat(watched.getApiVersion() + " " + watched.getKind()).as("watched as a full object")
                        .isEqualTo("v1 ConfigMap");
            }
        }
    }
}

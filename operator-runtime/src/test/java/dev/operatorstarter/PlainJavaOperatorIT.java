package dev.operatorstarter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.ManagedRunnable;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** An operator in plain Java, no Spring: the manager runs it against the real API server. */
@KubernetesTest
class PlainJavaOperatorIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /**
     * The example of docs/controllers/manager.md ("A plain-Java operator"): every ConfigMap labelled
     * {@code mirror=true} in the namespace gets a copy named {@code <name>-mirror} that it owns
     * (cached as metadata only); a finalizer's cleaner deletes the copy when the original goes.
     */
    @Test
    void aPlainJavaOperatorReconcilesAsTheLeaderAndReleasesTheLeaseWhenClosed(ClusterConnection connection,
            TestNamespace namespace) throws Exception {
        String ns = namespace.name();
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null))) {
            // --- example start
            Manager manager = Manager.builder(client)
                    .leaderElection(LeaseLock.of(client, ns, "mirror-operator", "replica-1"), election -> election)
                    .build();
            ResourceClient<ConfigMap> api = client.coreV1().configMaps();
            List<String> cleanedUp = new CopyOnWriteArrayList<>();
            Controller<ConfigMap> controller = manager.controller(ConfigMap.class).named("mirror")
                    .namespaces(ns).labelSelector("mirror=true")
                    .ownsMetadata(ConfigMap.class).ownedLabelSelector("mirror-of")
                    .finalizer("mirror.example.com/cleanup", source -> {
                        api.inNamespace(source.getMetadata().getNamespace())
                                .delete(source.getMetadata().getName() + "-mirror");
                        cleanedUp.add(source.getMetadata().getName());
                    })
                    .reconcile(request -> {
                        Optional<ConfigMap> source = manager.lister(ConfigMap.class).namespace(request.namespace())
                                .get(request.name());
                        if (source.isEmpty()) {
                            return ReconcileResult.done(); // deleted: the finalizer's cleaner removed the mirror
                        }
                        ConfigMap mirror = new ConfigMapBuilder().withNewMetadata()
                                .withNamespace(request.namespace()).withName(request.name() + "-mirror")
                                .addToLabels("mirror-of", request.name()).endMetadata()
                                .withData(source.get().getData()).build();
                        OwnerReferences.setController(source.get(), mirror);
                        api.inNamespace(request.namespace()).apply(mirror, PatchOptions.apply("mirror-operator"));
                        return ReconcileResult.done();
                    });
            manager.start(); // informers → cache sync → campaign → controllers once elected
            // --- example end
            try {
                api.inNamespace(ns).create(new ConfigMapBuilder().withNewMetadata().withName("greeting")
                        .addToLabels("mirror", "true").endMetadata().addToData("hello", "world").build());
                await().atMost(WAIT).until(() -> api.inNamespace(ns).find("greeting-mirror").isPresent());
                assertThat(api.inNamespace(ns).get("greeting-mirror").getData()).containsEntry("hello", "world");
                assertThat(manager.isActive()).isTrue();
                assertThat(manager.leaderElector()).get().satisfies(elector -> assertThat(elector.isLeader()).isTrue());
                assertThat(manager.controllers()).singleElement().satisfies(status -> {
                    assertThat(status.name()).isEqualTo("mirror");
                    assertThat(status.running()).isTrue();
                    assertThat(status.startError()).isNull();
                });
                assertThat(api.inNamespace(ns).get("greeting").getMetadata().getFinalizers())
                        .containsExactly("mirror.example.com/cleanup");
                assertThat(controller.primaries()).singleElement()
                        .satisfies(primary -> assertThat(manager.informers().scopeOf(primary)).get()
                                .isEqualTo(InformerScope.namespace(ns).withLabelSelector("mirror=true")));
                assertThat(manager.metadataLister(ConfigMap.class).list()).extracting(m -> m.getMetadata().getName())
                        .containsExactly("greeting-mirror");

                api.inNamespace(ns).delete("greeting");
                await().atMost(WAIT).until(() -> api.inNamespace(ns).find("greeting").isEmpty());
                assertThat(cleanedUp).containsExactly("greeting");
                assertThat(api.inNamespace(ns).find("greeting-mirror")).as("the cleaner deleted the mirror").isEmpty();
            } finally {
                manager.close();
            }
            assertThat(controller.isRunning()).isFalse();
            assertThat(manager.isActive()).isFalse();
            Lease lease = client.coordinationV1().leases().inNamespace(ns).get("mirror-operator");
            assertThat(lease.getSpec().getHolderIdentity()).as("released on close").isNullOrEmpty();
            assertThatThrownBy(manager::start).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("cannot start again");
        }
    }

    @Test
    void withoutElectionTheControllersStartOnceTheCachesHaveSynced(ClusterConnection connection,
            TestNamespace namespace) throws Exception {
        try (KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
                Manager manager = Manager.builder(client).build()) {
            SharedIndexInformer<ConfigMap> configMaps = manager.informers().informerFor(ConfigMap.class,
                    InformerScope.namespace(namespace.name()));
            List<Boolean> syncedWhenReconciled = new CopyOnWriteArrayList<>();
            Controller<ConfigMap> controller = Controller.builder(ControllerOptions.builder("plain").build(),
                    ResourceType.of(ConfigMap.class), configMaps).build(request -> {
                        syncedWhenReconciled.add(configMaps.hasSynced());
                        return ReconcileResult.done();
                    });
            manager.add(ManagedRunnable.of(controller), RunnableGroup.LEADER_TERM); // a controller built by hand
            client.coreV1().configMaps().inNamespace(namespace.name()).create(new ConfigMapBuilder().withNewMetadata()
                    .withName("present-before-start").endMetadata().build());
            manager.startInBackground();
            await().atMost(WAIT).until(() -> !syncedWhenReconciled.isEmpty());
            assertThat(syncedWhenReconciled).as("no reconcile ran before the caches had synced").containsOnly(true);
            assertThat(controller.isRunning()).isTrue();
            assertThat(configMaps.hasSynced()).isTrue();
            assertThat(manager.isActive()).isTrue();
            assertThat(manager.leaderElector()).isEmpty();
            assertThatThrownBy(() -> manager.add(ManagedRunnable.of(controller), RunnableGroup.LEADER_TERM))
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}

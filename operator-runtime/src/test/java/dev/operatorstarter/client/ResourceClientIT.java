package dev.operatorstarter.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.rest.ApiErrors;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;

/** Every verb of the typed and dynamic clients against the real API server. */
@KubernetesTest(crds = "crds/gadgets.yaml")
@ExtendWith(AdminClientExtension.class)
class ResourceClientIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static KubernetesClient client;

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    private static ConfigMap configMap(String name, String key, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("suite", "resource-client-it")
                .endMetadata().addToData(key, value).build();
    }

    @Test
    void createGetListUpdateAndDeleteAConfigMap(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());

        ConfigMap created = configMaps.create(configMap("settings", "colour", "blue"));
        ConfigMap read = configMaps.get("settings");
        List<String> listed = configMaps.list(ListOptions.builder().labelSelector("suite=resource-client-it").build())
                .items().stream().map(c -> c.getMetadata().getName()).toList();
        read.getData().put("colour", "green");
        ConfigMap updated = configMaps.update(read);
        configMaps.delete("settings");

        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(read.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
        assertThat(listed).containsExactly("settings");
        assertThat(updated.getData()).containsEntry("colour", "green");
        assertThat(configMaps.find("settings")).isEmpty();
        assertThatThrownBy(() -> configMaps.get("settings")).isInstanceOf(ApiException.NotFound.class)
                .hasMessageContaining("GET https://").hasMessageContaining("404 NotFound")
                .hasMessageContaining("configmaps \"settings\" not found");
    }

    @Test
    void aDuplicateCreateAndAStaleUpdateAreTypedErrors(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        ConfigMap first = configMaps.create(configMap("contested", "k", "1"));
        ConfigMap stale = configMaps.get("contested");
        first.getData().put("k", "2");
        configMaps.update(first);
        stale.getData().put("k", "3");

        assertThatThrownBy(() -> configMaps.create(configMap("contested", "k", "1")))
                .isInstanceOf(ApiException.AlreadyExists.class)
                .satisfies(e -> assertThat(ApiErrors.isAlreadyExists(e)).isTrue());
        assertThatThrownBy(() -> configMaps.update(stale)).isInstanceOf(ApiException.Conflict.class)
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(409));
    }

    @Test
    void retryOnConflictRereadsAndWins(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(configMap("counter", "n", "0"));
        List<Integer> attempts = new ArrayList<>();

        ConfigMap result = RetryOnConflict.run(() -> {
            ConfigMap current = configMaps.get("counter");
            if (attempts.isEmpty()) { // someone else writes between our read and our update, once
                ConfigMap other = configMaps.get("counter");
                other.getData().put("n", "10");
                configMaps.update(other);
            }
            attempts.add(attempts.size() + 1);
            current.getData().put("n", Integer.toString(Integer.parseInt(current.getData().get("n")) + 1));
            return configMaps.update(current);
        });

        assertThat(attempts).hasSize(2);
        assertThat(result.getData()).containsEntry("n", "11");
    }

    @Test
    void everyPatchTypeChangesTheObject(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(configMap("patched", "a", "1"));

        ConfigMap merged = configMaps.patch("patched", PatchType.MERGE, Map.of("data", Map.of("b", "2")));
        ConfigMap strategic = configMaps.patch("patched", PatchType.STRATEGIC_MERGE, "{\"data\":{\"c\":\"3\"}}");
        ConfigMap json = configMaps.patch("patched", PatchType.JSON,
                List.of(Map.of("op", "remove", "path", "/data/a")));

        assertThat(merged.getData()).containsEntry("a", "1").containsEntry("b", "2");
        assertThat(strategic.getData()).containsEntry("c", "3");
        assertThat(json.getData()).doesNotContainKey("a").containsKeys("b", "c");
    }

    @Test
    void serverSideApplyConflictsWithoutForceAndTakesOverWithIt(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        ConfigMap mine = configMaps.apply(configMap("applied", "owner", "first"), PatchOptions.apply("first-manager"));

        assertThatThrownBy(() -> configMaps.apply(configMap("applied", "owner", "second"),
                PatchOptions.apply("second-manager")))
                .isInstanceOf(ApiException.Conflict.class).hasMessageContaining("first-manager");
        ConfigMap forced = configMaps.apply(configMap("applied", "owner", "second"),
                PatchOptions.forceApply("second-manager"));

        assertThat(mine.getData()).containsEntry("owner", "first");
        assertThat(forced.getData()).containsEntry("owner", "second");
        assertThat(forced.getMetadata().getManagedFields()).extracting(f -> f.getManager())
                .contains("second-manager");
    }

    @Test
    void deleteHonoursPreconditions(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        ConfigMap created = configMaps.create(configMap("guarded", "k", "v"));

        assertThatThrownBy(() -> configMaps.delete("guarded",
                DeleteOptions.defaults().withPreconditions("not-the-uid", null)))
                .isInstanceOf(ApiException.Conflict.class);
        configMaps.delete("guarded", DeleteOptions.propagation(DeleteOptions.Propagation.BACKGROUND)
                .withPreconditions(created.getMetadata().getUid(), created.getMetadata().getResourceVersion()));
        assertThat(configMaps.find("guarded")).isEmpty();
    }

    @Test
    void deleteCollectionRemovesWhatTheSelectorMatches(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(configMap("one", "k", "v"));
        configMaps.create(configMap("two", "k", "v"));
        configMaps.create(new ConfigMapBuilder().withNewMetadata().withName("kept").endMetadata().build());

        configMaps.deleteCollection(ListOptions.builder().labelSelector("suite=resource-client-it").build(),
                DeleteOptions.defaults());

        assertThat(configMaps.list().items()).extracting(c -> c.getMetadata().getName())
                .contains("kept").doesNotContain("one", "two");
    }

    @Test
    void listAllPagesThroughAFewHundredObjects(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        IntStream.range(0, 300).parallel().forEach(i -> configMaps.create(configMap("page-" + i, "i", "" + i)));
        ListOptions selection = ListOptions.builder().labelSelector("suite=resource-client-it").limit(40).build();

        ResourceList<ConfigMap> firstPage = configMaps.list(selection);
        List<String> all;
        try (var stream = configMaps.listAll(selection)) {
            all = stream.map(c -> c.getMetadata().getName()).toList();
        }

        List<String> fromAVersion;
        try (var stream = configMaps.listAll(selection.toBuilder().resourceVersion(firstPage.resourceVersion())
                .resourceVersionMatch("NotOlderThan").build())) {
            fromAVersion = stream.map(c -> c.getMetadata().getName()).toList();
        }

        assertThat(firstPage.items()).hasSize(40);
        assertThat(firstPage.continueToken()).isNotEmpty();
        assertThat(all).hasSize(300).doesNotHaveDuplicates();
        assertThat(fromAVersion).as("pages after the first drop the resourceVersion").hasSize(300);
    }

    @Test
    void customResourceStatusIsWrittenOnlyThroughTheSubresource(TestNamespace namespace) {
        ResourceClient<Gadget> gadgets = client.resources(Gadget.class).inNamespace(namespace.name());
        Gadget created = gadgets.create(Gadget.named("g1", 3));

        created.setStatus(Map.of("phase", "Ready"));
        Gadget afterUpdate = gadgets.update(created); // the main resource ignores status
        Map<String, Object> statusAfterUpdate = afterUpdate.getStatus();
        afterUpdate.setStatus(Map.of("phase", "Ready"));
        Gadget afterStatus = gadgets.updateStatus(afterUpdate);
        Gadget patched = gadgets.patchStatus("g1", PatchType.MERGE, Map.of("status", Map.of("phase", "Done")),
                PatchOptions.none());
        Gadget applied = gadgets.applyStatus(statusOnly("g1", "Applied"), PatchOptions.forceApply("status-writer"));

        assertThat(gadgets.type().namespaced()).isTrue();
        assertThat(statusAfterUpdate).isNull();
        assertThat(afterStatus.getStatus()).containsEntry("phase", "Ready");
        assertThat(patched.getStatus()).containsEntry("phase", "Done");
        assertThat(applied.getStatus()).containsEntry("phase", "Applied");
        assertThat(applied.getSpec()).containsEntry("size", 3);
    }

    private static Gadget statusOnly(String name, String phase) {
        Gadget gadget = new Gadget();
        gadget.getMetadata().setName(name);
        gadget.setSpec(null);
        gadget.setStatus(Map.of("phase", phase));
        return gadget;
    }

    @Test
    void anInvalidObjectNamesTheFieldInItsCauses(TestNamespace namespace) {
        ResourceClient<Gadget> gadgets = client.resources(Gadget.class).inNamespace(namespace.name());

        assertThatThrownBy(() -> gadgets.create(Gadget.named("too-small", 0)))
                .isInstanceOf(ApiException.Invalid.class)
                .satisfies(e -> assertThat(((ApiException) e).causes()).extracting(c -> c.getField())
                        .contains("spec.size"));
    }

    @Test
    void theScaleSubresourceReadsAndWritesReplicas(TestNamespace namespace) {
        ResourceClient<Deployment> deployments = client.appsV1().deployments().inNamespace(namespace.name());
        deployments.create(new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec()
                .withReplicas(1).withNewSelector().addToMatchLabels("app", "web").endSelector().withNewTemplate()
                .withNewMetadata().addToLabels("app", "web").endMetadata().withNewSpec().addNewContainer()
                .withName("web").withImage("nginx").endContainer().endSpec().endTemplate().endSpec().build());
        ResourceClient<Gadget> gadgets = client.resources(Gadget.class).inNamespace(namespace.name());
        Gadget gadget = Gadget.named("scaled", 1);
        gadget.getSpec().put("replicas", 2);
        gadgets.create(gadget);

        // The controller manager's deployment controller writes the new Deployment's status meanwhile:
        // a read-modify-write of its scale retries on a conflict, as kubectl scale's would.
        Scale updated = RetryOnConflict.run(() -> {
            Scale scale = deployments.getScale("web");
            assertThat(scale.getMetadata().getName()).isEqualTo("web");
            scale.getSpec().setReplicas(4);
            return deployments.updateScale("web", scale);
        });
        Scale gadgetScale = gadgets.getScale("scaled");
        gadgetScale.getSpec().setReplicas(5);
        gadgets.updateScale("scaled", gadgetScale);

        assertThat(updated.getSpec().getReplicas()).isEqualTo(4);
        assertThat(deployments.get("web").getSpec().getReplicas()).isEqualTo(4);
        assertThat(gadgets.get("scaled").getSpec()).containsEntry("replicas", 5);
    }

    @Test
    void dynamicClientServesTheCustomResourceWithScopeFromDiscovery(TestNamespace namespace) {
        ResourceClient<GenericKubernetesResource> gadgets = client
                .dynamic(new GroupVersionResource("runtime.operatorstarter.dev", "v1", "gadgets"))
                .inNamespace(namespace.name());
        GenericKubernetesResource gadget = new GenericKubernetesResource();
        gadget.setApiVersion("runtime.operatorstarter.dev/v1");
        gadget.setKind("Gadget");
        gadget.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("dyn").build());
        gadget.setAdditionalProperty("spec", Map.of("size", 2, "colour", "red"));

        GenericKubernetesResource created = gadgets.create(gadget);
        GenericKubernetesResource patched = gadgets.patch("dyn", PatchType.MERGE, Map.of("spec", Map.of("size", 7)));
        List<GenericKubernetesResource> listed = gadgets.list().items();
        ResourceClient<GenericKubernetesResource> byKind = client.dynamic("runtime.operatorstarter.dev/v1", "Gadget");
        gadgets.delete("dyn");

        assertThat(gadgets.type().namespaced()).isTrue();
        assertThat(gadgets.type().kind()).isEqualTo("Gadget");
        assertThat(byKind.type().plural()).isEqualTo("gadgets");
        assertThat(created.getMetadata().getUid()).isNotEmpty();
        assertThat(patched.get("spec", "size").toString()).isEqualTo("7");
        assertThat(listed).extracting(g -> g.getMetadata().getName()).containsExactly("dyn");
        assertThat(gadgets.find("dyn")).isEmpty();
    }

    @Test
    void aWatchDeliversAddedModifiedAndDeletedInOrder(TestNamespace namespace) throws InterruptedException {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        String from = configMaps.list().resourceVersion();
        BlockingQueue<WatchEvent<ConfigMap>> events = new LinkedBlockingQueue<>();
        Disposable watch = configMaps.watch(ListOptions.builder().resourceVersion(from).timeoutSeconds(60L).build())
                .subscribe(events::add);
        try {
            ConfigMap created = configMaps.create(configMap("watched", "k", "1"));
            created.getData().put("k", "2");
            configMaps.update(created);
            configMaps.delete("watched");

            List<String> seen = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                WatchEvent<ConfigMap> event = events.poll(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(event).as("event %d", i + 1).isNotNull();
                seen.add(event.getClass().getSimpleName() + ":" + value(event));
            }
            assertThat(seen).containsExactly("Added:1", "Modified:2", "Deleted:2");
        } finally {
            watch.dispose();
        }
    }

    private static String value(WatchEvent<ConfigMap> event) {
        if (event instanceof WatchEvent.Added<ConfigMap> added) {
            return added.object().getData().get("k");
        }
        if (event instanceof WatchEvent.Modified<ConfigMap> modified) {
            return modified.object().getData().get("k");
        }
        if (event instanceof WatchEvent.Deleted<ConfigMap> deleted) {
            return deleted.object().getData().get("k");
        }
        return "?";
    }

    @Test
    void aWatchAskingForBookmarksReceivesThem(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        String from = configMaps.list().resourceVersion();

        // The server sends a bookmark shortly before a watch's timeout when bookmarks are allowed
        // and the store has moved past the watch's resourceVersion: a write elsewhere moves it.
        var watch = configMaps.watch(ListOptions.builder().resourceVersion(from).allowWatchBookmarks(true)
                .timeoutSeconds(5L).build()).collectList().toFuture();
        client.coreV1().configMaps().inNamespace("default").create(new ConfigMapBuilder().withNewMetadata()
                .withGenerateName("elsewhere-").endMetadata().build());
        List<WatchEvent<ConfigMap>> events = watch.orTimeout(TIMEOUT.toSeconds(), TimeUnit.SECONDS).join();

        assertThat(events).isNotNull().anySatisfy(event -> assertThat(event)
                .isInstanceOfSatisfying(WatchEvent.Bookmark.class,
                        bookmark -> assertThat(Long.parseLong(bookmark.resourceVersion())).isGreaterThanOrEqualTo(
                                Long.parseLong(from))));
    }

    @Test
    void aStreamingListEndsItsInitialEventsWithABookmark(TestNamespace namespace) {
        ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace.name());
        configMaps.create(configMap("initial-1", "k", "v"));
        configMaps.create(configMap("initial-2", "k", "v"));

        List<WatchEvent<ConfigMap>> initial = configMaps.watch(ListOptions.builder().sendInitialEvents(true)
                .resourceVersionMatch("NotOlderThan").allowWatchBookmarks(true).timeoutSeconds(30L).build())
                .takeUntil(event -> event instanceof WatchEvent.Bookmark<ConfigMap>
                        && ((WatchEvent.Bookmark<ConfigMap>) event).endsInitialEvents())
                .collectList().block(TIMEOUT);

        assertThat(initial).isNotNull();
        assertThat(initial.stream().filter(WatchEvent.Added.class::isInstance)
                .map(e -> ((WatchEvent.Added<ConfigMap>) e).object().getMetadata().getName())
                .collect(Collectors.toSet())).contains("initial-1", "initial-2");
        assertThat(initial.get(initial.size() - 1)).isInstanceOf(WatchEvent.Bookmark.class);
    }
}

package dev.operatorstarter.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.ListerWatcher;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.Gadget;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceList;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.workqueue.RateLimiter;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

/** Controllers on a custom resource against the real API server. */
@KubernetesTest(crds = "crds/gadgets.yaml")
@ExtendWith(AdminClientExtension.class)
class ControllerIT {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static KubernetesClient client;
    private SharedInformerFactory factory;
    private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
    private Controller<Gadget> controller;

    @BeforeAll
    static void connect(KubernetesClient admin) {
        client = admin;
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (controller != null) {
            controller.stop(Duration.ofSeconds(10));
        }
        if (factory != null) {
            factory.close();
        }
        informers.forEach(SharedIndexInformer::stop);
    }

    private static Gadget gadget(String name, int size) {
        Gadget gadget = new Gadget();
        gadget.getMetadata().setName(name);
        gadget.getSpec().put("size", size);
        return gadget;
    }

    private ControllerBuilder<Gadget> builder(String namespace, ControllerOptions.Builder options) {
        factory = new SharedInformerFactory(client, InformerOptions.defaults());
        SharedIndexInformer<Gadget> gadgets = factory.informerFor(Gadget.class, InformerScope.namespace(namespace));
        factory.start();
        return Controller.builder(options.rateLimiter(RateLimiter.exponential(Duration.ofMillis(5),
                Duration.ofMillis(200))).build(), ResourceType.of(Gadget.class), gadgets);
    }

    @Test
    void reconcilesOnCreateUpdateAndDeleteReadingTheCache(TestNamespace namespace) throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        ControllerBuilder<Gadget> builder = builder(namespace.name(), ControllerOptions.builder("gadgets"));
        SharedIndexInformer<Gadget> gadgets = factory.informerFor(Gadget.class, InformerScope.namespace(namespace.name()));
        controller = builder.withFilter(EventFilter.generationChanged()).build(request -> {
            Optional<Gadget> gadget = gadgets.lister().namespace(request.namespace()).get(request.name());
            seen.add(gadget.map(g -> request.name() + " size " + g.getSpec().get("size")).orElse(request.name() + " gone"));
            return ReconcileResult.done();
        });
        controller.start();
        ResourceClient<Gadget> api = client.resources(Gadget.class).inNamespace(namespace.name());
        api.create(gadget("g1", 1));
        await().atMost(WAIT).until(() -> seen.contains("g1 size 1"));
        Gadget current = api.get("g1");
        current.getSpec().put("size", 2);
        api.update(current);
        await().atMost(WAIT).until(() -> seen.contains("g1 size 2"));
        api.delete("g1");
        await().atMost(WAIT).until(() -> seen.contains("g1 gone"));
    }

    @Test
    void deletingAnOwnedConfigMapReconcilesItsOwnerWhichRecreatesIt(TestNamespace namespace) throws Exception {
        AtomicInteger reconciles = new AtomicInteger();
        ControllerBuilder<Gadget> builder = builder(namespace.name(), ControllerOptions.builder("owner"));
        SharedIndexInformer<Gadget> gadgets = factory.informerFor(Gadget.class, InformerScope.namespace(namespace.name()));
        SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class,
                InformerScope.namespace(namespace.name()));
        factory.start();
        controller = builder.owns(configMaps).build(request -> {
            reconciles.incrementAndGet();
            Optional<Gadget> gadget = gadgets.lister().namespace(request.namespace()).get(request.name());
            if (gadget.isEmpty()) {
                return ReconcileResult.done();
            }
            ConfigMap desired = new ConfigMapBuilder().withNewMetadata().withNamespace(request.namespace())
                    .withName(request.name() + "-config").endMetadata()
                    .addToData("size", String.valueOf(gadget.get().getSpec().get("size"))).build();
            OwnerReferences.setController(gadget.get(), desired);
            Writes.createOrPatch(client.coreV1().configMaps().inNamespace(request.namespace()), desired,
                    "gadget-controller");
            return ReconcileResult.done();
        });
        controller.start();
        ResourceClient<ConfigMap> configMapApi = client.coreV1().configMaps().inNamespace(namespace.name());
        client.resources(Gadget.class).inNamespace(namespace.name()).create(gadget("g2", 3));
        await().atMost(WAIT).until(() -> configMapApi.find("g2-config").isPresent());
        String firstUid = configMapApi.get("g2-config").getMetadata().getUid();
        assertThat(configMapApi.get("g2-config").getMetadata().getOwnerReferences()).singleElement()
                .satisfies(reference -> assertThat(reference.getName()).isEqualTo("g2"));

        configMapApi.delete("g2-config");
        await().atMost(WAIT).until(() -> configMapApi.find("g2-config")
                .filter(c -> !c.getMetadata().getUid().equals(firstUid)).isPresent());
    }

    @Test
    void aFailingReconcileBacksOffThenSucceedsAndRequeueAfterIsHonoured(TestNamespace namespace) throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger succeededAt = new AtomicInteger();
        List<Long> requeued = new CopyOnWriteArrayList<>();
        ControllerBuilder<Gadget> builder = builder(namespace.name(), ControllerOptions.builder("flaky"));
        controller = builder.build(request -> {
            if (request.name().equals("poller")) {
                requeued.add(System.nanoTime());
                return requeued.size() < 3 ? ReconcileResult.requeueAfter(Duration.ofMillis(300)) : ReconcileResult.done();
            }
            if (attempts.incrementAndGet() <= 3) {
                throw new IllegalStateException("dependency not ready");
            }
            ResourceClient<Gadget> api = controller.tracked(client.resources(Gadget.class))
                    .inNamespace(request.namespace());
            Gadget gadget = api.get(request.name());
            gadget.setStatus(Map.of("phase", "Ready"));
            api.updateStatus(gadget);
            succeededAt.compareAndSet(0, attempts.get());
            return ReconcileResult.done();
        });
        controller.start();
        ResourceClient<Gadget> api = client.resources(Gadget.class).inNamespace(namespace.name());
        api.create(gadget("flaky", 1));
        api.create(gadget("poller", 1));
        // the status can be read back before the reconcile that wrote it has noted its attempt
        await().atMost(WAIT).until(() -> "Ready".equals(Optional.ofNullable(api.get("flaky").getStatus())
                .map(s -> s.get("phase")).orElse(null)) && succeededAt.get() > 0);
        assertThat(succeededAt).as("three failures, then success").hasValue(4);
        await().atMost(WAIT).until(() -> requeued.size() == 3);
        assertThat(requeued.get(1) - requeued.get(0)).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
    }

    @Test
    void aReconcileNeverSeesAnObjectOlderThanItsOwnLastWriteUnderRapidUpdates(TestNamespace namespace)
            throws Exception {
        AtomicLong lastWritten = new AtomicLong();
        List<String> staleReads = new CopyOnWriteArrayList<>();
        AtomicInteger writes = new AtomicInteger();
        // A cache that lags: every watch event reaches it 150 ms late, as on a busy API server.
        ListerWatcher<Gadget> direct = ListerWatcher.of(client.resources(Gadget.class).inNamespace(namespace.name()),
                null, null);
        SharedIndexInformer<Gadget> gadgets = SharedIndexInformer.create("gadgets-lagging", new ListerWatcher<>() {
            @Override
            public ResourceList<Gadget> list(ListOptions options) {
                return direct.list(options);
            }

            @Override
            public Flux<WatchEvent<Gadget>> watch(ListOptions options) {
                return direct.watch(options).delayElements(Duration.ofMillis(150));
            }
        }, Gadget.class, InformerOptions.defaults());
        informers.add(gadgets);
        gadgets.start();
        controller = Controller.builder(ControllerOptions.builder("ryow").build(), ResourceType.of(Gadget.class),
                gadgets).build(request -> {
            Optional<Gadget> cached = gadgets.lister().namespace(request.namespace()).get(request.name());
            if (cached.isEmpty()) {
                return ReconcileResult.done();
            }
            long seen = Long.parseLong(cached.get().getMetadata().getResourceVersion());
            if (seen < lastWritten.get()) {
                staleReads.add(seen + " < " + lastWritten.get());
            }
            // Write status from the cached copy: a stale copy would also fail with a conflict.
            Gadget copy = new Gadget();
            copy.setMetadata(cached.get().getMetadata());
            copy.setSpec(cached.get().getSpec());
            copy.setStatus(Map.of("replicas", ((Number) cached.get().getSpec().get("size")).intValue()));
            Gadget written = controller.tracked(client.resources(Gadget.class)).inNamespace(request.namespace())
                    .updateStatus(copy);
            lastWritten.set(Long.parseLong(written.getMetadata().getResourceVersion()));
            // Look again at once, as a poll would: the next reconcile comes before the lagging
            // cache has this write, unless the controller waits for it.
            return writes.incrementAndGet() < 40 ? ReconcileResult.requeueAfter(Duration.ofMillis(1)) : ReconcileResult.done();
        });
        controller.start();
        ResourceClient<Gadget> api = client.resources(Gadget.class).inNamespace(namespace.name());
        api.create(gadget("busy", 1));
        for (int size = 2; size <= 30; size++) {
            int value = size;
            dev.operatorstarter.client.RetryOnConflict.run(() -> {
                Gadget current = api.get("busy");
                current.getSpec().put("size", value);
                return api.update(current);
            });
        }
        await().atMost(WAIT).until(() -> Optional.ofNullable(api.get("busy").getStatus())
                .map(s -> s.get("replicas")).map(r -> ((Number) r).intValue() == 30).orElse(false));
        // the status can be read back before the reconcile that wrote it has counted its write
        await().atMost(WAIT).until(() -> writes.get() > 0);
        assertThat(staleReads).as("reconciles that saw an object older than their own last write").isEmpty();
    }

    /** The example of docs/controllers/controller.md, as printed there. */
    @Test
    void theGuidesExample(TestNamespace testNamespace) throws Exception {
        String namespace = testNamespace.name();
        client.resources(Gadget.class).inNamespace(namespace).create(gadget("example", 4));
        ResourceClient<ConfigMap> configMapApi = client.coreV1().configMaps().inNamespace(namespace);

        // --- begin example (docs/controllers/controller.md)
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<Gadget> gadgets = factory.informerFor(Gadget.class, InformerScope.namespace(namespace));
            SharedIndexInformer<ConfigMap> configMaps = factory.informerFor(ConfigMap.class,
                    InformerScope.namespace(namespace));
            factory.start();

            Controller<Gadget> controller = Controller.builder(ControllerOptions.builder("gadgets").workers(2).build(),
                    ResourceType.of(Gadget.class), gadgets)
                    .withFilter(EventFilter.generationChanged())
                    .owns(configMaps)
                    .build(request -> {
                        Optional<Gadget> gadget = gadgets.lister().namespace(request.namespace()).get(request.name());
                        if (gadget.isEmpty()) {
                            return ReconcileResult.done(); // deleted: the garbage collector removes what it owned
                        }
                        ConfigMap desired = new ConfigMapBuilder().withNewMetadata()
                                .withNamespace(request.namespace()).withName(request.name() + "-config").endMetadata()
                                .addToData("size", String.valueOf(gadget.get().getSpec().get("size"))).build();
                        OwnerReferences.setController(gadget.get(), desired);
                        Writes.createOrPatch(client.coreV1().configMaps().inNamespace(request.namespace()), desired,
                                "gadget-controller");
                        return ReconcileResult.done();
                    });
            controller.start();
            // --- end example
            await().atMost(WAIT).until(() -> configMapApi.find("example-config").isPresent());
            assertThat(configMapApi.get("example-config").getData()).containsEntry("size", "4");
            controller.stop(Duration.ofSeconds(30));
        }
    }
}

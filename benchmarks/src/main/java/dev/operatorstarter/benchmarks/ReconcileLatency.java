package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.ReconcileResult;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Latency from a custom resource update to the start of its reconcile, on the real API server,
 * with 50 updates per second spread over 50 objects: each update writes {@code spec.sentAt}
 * (this JVM's monotonic clock); the reconcile reads the object from the cache and records how
 * long ago the version it sees was sent (each version once).
 */
final class ReconcileLatency {

    static final GroupVersionResource PULSES = new GroupVersionResource("benchmarks.operatorstarter.dev", "v1", "pulses");
    private static final String NAMESPACE = "bench-latency";
    private static final int OBJECTS = 50;

    /** p50, p99 and max in milliseconds, and the number of samples. */
    record Latency(double p50, double p99, double max, int samples) {
    }

    private ReconcileLatency() {
    }

    static Latency measure(KubernetesClient client, Duration duration) throws Exception {
        createCrd(client);
        client.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build());
        ResourceClient<GenericKubernetesResource> pulses = client.dynamic(PULSES).inNamespace(NAMESPACE);
        for (int i = 0; i < OBJECTS; i++) {
            pulses.create(new GenericKubernetesResourceBuilder().withApiVersion("benchmarks.operatorstarter.dev/v1")
                    .withKind("Pulse").withNewMetadata().withName("pulse-" + i).endMetadata()
                    .addToAdditionalProperties("spec", Map.of("sentAt", 0L)).build());
        }
        List<Long> latencies = new CopyOnWriteArrayList<>();
        Map<String, Long> seen = new ConcurrentHashMap<>();
        try (SharedInformerFactory factory = new SharedInformerFactory(client, InformerOptions.defaults())) {
            SharedIndexInformer<GenericKubernetesResource> informer = factory.informerFor(PULSES,
                    InformerScope.namespace(NAMESPACE));
            factory.start();
            factory.waitForCacheSync(Duration.ofMinutes(1));
            Controller<GenericKubernetesResource> controller = Controller.builder(
                    ControllerOptions.builder("pulse").build(), ResourceType.generic(PULSES, "Pulse", true), informer)
                    .build(request -> {
                        long now = System.nanoTime();
                        Optional<GenericKubernetesResource> pulse = informer.lister().namespace(request.namespace())
                                .get(request.name());
                        pulse.map(ReconcileLatency::sentAt).filter(sent -> sent > 0)
                                .filter(sent -> !sent.equals(seen.put(request.key(), sent)))
                                .ifPresent(sent -> latencies.add(now - sent));
                        return ReconcileResult.done();
                    });
            controller.start();
            ScheduledExecutorService updates = Executors.newSingleThreadScheduledExecutor();
            AtomicInteger next = new AtomicInteger();
            updates.scheduleAtFixedRate(() -> pulses.patch("pulse-" + (next.getAndIncrement() % OBJECTS),
                    PatchType.MERGE, Map.of("spec", Map.of("sentAt", System.nanoTime()))), 0, 20, TimeUnit.MILLISECONDS);
            Thread.sleep(duration.toMillis());
            updates.shutdown();
            updates.awaitTermination(10, TimeUnit.SECONDS);
            Thread.sleep(1000); // let the last updates arrive before stopping the controller
            controller.stop(Duration.ofSeconds(5));
        }
        List<Long> samples = new ArrayList<>(latencies);
        return new Latency(Stats.percentile(samples, 50) / 1e6, Stats.percentile(samples, 99) / 1e6,
                Stats.percentile(samples, 100) / 1e6, samples.size());
    }

    private static Long sentAt(GenericKubernetesResource pulse) {
        Object spec = pulse.getAdditionalProperties().get("spec");
        Object sent = spec instanceof Map<?, ?> map ? map.get("sentAt") : null;
        return sent instanceof Number number ? number.longValue() : 0L;
    }

    private static void createCrd(KubernetesClient client) throws InterruptedException {
        client.apiextensionsV1().customResourceDefinitions().create(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("pulses.benchmarks.operatorstarter.dev").endMetadata().withNewSpec()
                .withGroup("benchmarks.operatorstarter.dev").withScope("Namespaced").withNewNames().withPlural("pulses")
                .withSingular("pulse").withKind("Pulse").endNames().addNewVersion().withName("v1").withServed(true)
                .withStorage(true).withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema().endVersion().endSpec().build());
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                client.dynamic(PULSES).inNamespace("default").list();
                return;
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200); // the CRD becomes served a moment after it is created
            }
        }
    }
}

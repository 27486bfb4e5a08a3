package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.test.Eventually;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * The objects the informer benchmarks cache, created once on the API server and shared by every
 * subject: ConfigMaps with about 1 KiB of data, and Pods shaped like a typical Deployment's
 * (labels, annotations, two containers with env, probes, resources and mounts), each
 * {@link Workload} in a namespace of its own. They carry no owner reference: the garbage
 * collector would delete Pods whose owner does not exist. Pods stay Pending (there is no kubelet
 * or scheduler), which does not change what a client caches.
 */
final class Dataset {

    /**
     * Holds one object of each kind (its kube-root-ca.crt ConfigMap and one Pod): each subject's
     * informer there costs its fixed cost, subtracted to get the cache's. One object rather than
     * none, so that what a client builds once per type on first decoding one (its deserializers)
     * counts as fixed, not as the cache's.
     */
    static final String BASELINE = "bench-baseline";
    /** Concurrent create requests: enough to keep the local API server and etcd busy on 2 cores. */
    private static final int PARALLEL_REQUESTS = 16;
    private static final Duration NAMESPACE_READY = Duration.ofMinutes(2);

    private Dataset() {
    }

    /**
     * Creates the namespace of each workload and {@link #BASELINE}, then the objects, {@value #PARALLEL_REQUESTS}
     * requests at a time; returns once each namespace lists exactly its workload's objects.
     */
    static void create(KubernetesClient client, List<Workload> workloads) throws Exception {
        List<String> namespaces = new ArrayList<>(workloads.stream().map(Workload::namespace).toList());
        namespaces.add(BASELINE);
        for (String namespace : namespaces) {
            client.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace)
                    .endMetadata().build());
        }
        for (String namespace : namespaces) {
            // the controller manager adds both; a Pod cannot be created before its service account exists
            Eventually.await("the default service account and kube-root-ca.crt in " + namespace, NAMESPACE_READY, () ->
                    client.coreV1().serviceAccounts().inNamespace(namespace).find("default").isPresent()
                    && client.coreV1().configMaps().inNamespace(namespace).find("kube-root-ca.crt").isPresent());
        }
        client.coreV1().pods().inNamespace(BASELINE).create(pod(0));
        for (Workload workload : workloads) {
            String namespace = workload.namespace();
            if (workload.kind() == Workload.Kind.PODS) {
                ResourceClient<Pod> pods = client.coreV1().pods().inNamespace(namespace);
                inParallel(workload.objects(), i -> pods.create(pod(i)));
            } else {
                ResourceClient<ConfigMap> configMaps = client.coreV1().configMaps().inNamespace(namespace);
                inParallel(workload.objects(), i -> configMaps.create(configMap(i)));
            }
        }
        for (Workload workload : workloads) {
            long listed = count(client, workload);
            if (listed != workload.listed()) {
                throw new IllegalStateException(workload.namespace() + " lists " + listed + " " + workload.kind().resource()
                        + ", not " + workload.listed());
            }
        }
    }

    /**
     * Runs {@code request} for {@code 0} to {@code count - 1}, {@value #PARALLEL_REQUESTS} at a time, and
     * returns once every one has; the first failure ends it, rethrown.
     */
    static void inParallel(int count, IntConsumer request) throws InterruptedException, ExecutionException {
        ExecutorService pool = Executors.newFixedThreadPool(PARALLEL_REQUESTS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                done.add(pool.submit(() -> request.accept(index)));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The objects of the workload's kind in its namespace, as the server lists them (page by page). */
    static long count(KubernetesClient client, Workload workload) {
        try (Stream<? extends HasMetadata> objects = client.resources(workload.kind().type())
                .inNamespace(workload.namespace()).listAll(ListOptions.builder().limit(500).build())) {
            return objects.count();
        }
    }

    static ConfigMap configMap(int i) {
        StringBuilder value = new StringBuilder();
        while (value.length() < 1000) {
            value.append("setting-").append(i).append('=').append(Integer.toHexString(value.length() * 31 + i)).append(';');
        }
        return new ConfigMapBuilder().withNewMetadata().withName("config-" + i).addToLabels("app", "bench")
                .addToLabels("shard", String.valueOf(i % 10)).endMetadata()
                .addToData("settings", value.substring(0, 1000)).addToData("version", String.valueOf(i)).build();
    }

    static Pod pod(int i) {
        String app = "service-" + (i % 40);
        return new PodBuilder().withNewMetadata().withName(app + "-" + Integer.toHexString(0x10000 + i))
                .addToLabels("app.kubernetes.io/name", app).addToLabels("app.kubernetes.io/part-of", "shop")
                .addToLabels("pod-template-hash", "7c9d8f6b5d")
                .addToAnnotations("prometheus.io/scrape", "true").addToAnnotations("prometheus.io/port", "8080")
                .addToAnnotations("kubectl.kubernetes.io/restartedAt", "2026-11-20T10:00:00Z").endMetadata()
                .withNewSpec().withServiceAccountName("default").withTerminationGracePeriodSeconds(30L)
                .addNewContainer().withName("app").withImage("registry.example/shop/" + app + ":1.4." + (i % 7))
                .addNewPort().withName("http").withContainerPort(8080).endPort()
                .addNewEnv().withName("SPRING_PROFILES_ACTIVE").withValue("production").endEnv()
                .addNewEnv().withName("JAVA_TOOL_OPTIONS").withValue("-XX:MaxRAMPercentage=75").endEnv()
                .addNewEnv().withName("POD_NAME").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.name")
                .endFieldRef().endValueFrom().endEnv()
                .withNewResources().addToRequests("cpu", new Quantity("250m")).addToRequests("memory", new Quantity("512Mi"))
                .addToLimits("memory", new Quantity("512Mi")).endResources()
                .withNewReadinessProbe().withNewHttpGet().withPath("/actuator/health/readiness")
                .withPort(new io.fabric8.kubernetes.api.model.IntOrString("http")).endHttpGet().withPeriodSeconds(5)
                .endReadinessProbe()
                .withNewLivenessProbe().withNewHttpGet().withPath("/actuator/health/liveness")
                .withPort(new io.fabric8.kubernetes.api.model.IntOrString("http")).endHttpGet().withPeriodSeconds(10)
                .endLivenessProbe()
                .addNewVolumeMount().withName("config").withMountPath("/config").withReadOnly(true).endVolumeMount()
                .endContainer()
                .addNewContainer().withName("proxy").withImage("registry.example/mesh/proxy:2.1.0")
                .addNewPort().withName("admin").withContainerPort(15000).endPort()
                .withNewResources().addToRequests("cpu", new Quantity("50m")).addToRequests("memory", new Quantity("64Mi"))
                .endResources().endContainer()
                .addNewVolume().withName("config").withNewConfigMap().withName(app + "-config").endConfigMap().endVolume()
                .endSpec().build();
    }
}

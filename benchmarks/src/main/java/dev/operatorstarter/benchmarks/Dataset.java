package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * The objects the informer benchmarks cache, created once on the API server and shared by every
 * subject: ConfigMaps with about 1 KiB of data, and Pods shaped like a typical Deployment's
 * (labels, annotations, two containers with env, probes, resources and mounts). They carry no
 * owner reference: the garbage collector would delete Pods whose owner does not exist. Pods stay
 * Pending (there is no kubelet or scheduler), which does not change what a client caches.
 */
final class Dataset {

    static final String CONFIGMAPS = "bench-configmaps";
    static final String PODS = "bench-pods";
    /** Holds nothing but its kube-root-ca.crt ConfigMap: each subject's fixed cost, subtracted to get the cache's. */
    static final String EMPTY = "bench-empty";

    private Dataset() {
    }

    static void create(KubernetesClient client, int configMaps, int pods) throws Exception {
        for (String namespace : List.of(CONFIGMAPS, PODS, EMPTY)) {
            client.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace)
                    .endMetadata().build());
        }
        parallel(configMaps, i -> client.coreV1().configMaps().inNamespace(CONFIGMAPS).create(configMap(i)));
        parallel(pods, i -> client.coreV1().pods().inNamespace(PODS).create(pod(i)));
    }

    private static void parallel(int count, IntFunction<Object> create) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Object>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                done.add(pool.submit(() -> create.apply(index)));
            }
            for (Future<Object> future : done) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
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

package dev.operatorstarter.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.internal.Json;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PartialObjectMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Measures the retained heap per cached object, with and without the informers' transforms. Not
 * part of the build (the name does not end in Test); run it in a fresh JVM with
 * <pre>mvn -B -q -pl operator-runtime -am test -Dtest=CacheMemoryMeasurement -Dsurefire.failIfNoSpecifiedTests=false</pre>
 * Objects are decoded one by one from JSON shaped like the API server's (with managedFields),
 * so no string is shared by accident, then stored in an informer's {@link Indexer} (namespace
 * index included). The figure is the heap growth after full GCs, divided by the object count;
 * median of 5 runs.
 */
class CacheMemoryMeasurement {

    private static final int CONFIG_MAPS = 10_000;
    private static final int PODS = 2_000;
    private static final int RUNS = 5;
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    @Test
    void measure() {
        List<String> lines = new ArrayList<>();
        for (Subject subject : List.of(
                new Subject("ConfigMap (1 KiB data)", ConfigMap.class, CONFIG_MAPS, CacheMemoryMeasurement::configMapJson),
                new Subject("Pod", Pod.class, PODS, CacheMemoryMeasurement::podJson),
                // a metadata-only informer's objects: the same JSON decoded as PartialObjectMetadata
                // (what the fallback does; the negotiated answer carries the same metadata)
                new Subject("ConfigMap, metadata only", PartialObjectMetadata.class, CONFIG_MAPS,
                        CacheMemoryMeasurement::configMapJson),
                new Subject("Pod, metadata only", PartialObjectMetadata.class, PODS, CacheMemoryMeasurement::podJson))) {
            long none = bytesPerObject(subject, Transforms.none());
            long stripped = bytesPerObject(subject, Transforms.stripManagedFields());
            long defaults = bytesPerObject(subject, Transforms.defaults());
            lines.add(String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d | %.0f%% |", subject.name, subject.count,
                    none, stripped, defaults, 100.0 * (none - defaults) / none));
            assertThat(defaults).as(subject.name + ": the default transform saves memory").isLessThan(none);
        }
        System.out.println();
        System.out.println("| object | count | no transform (B/object) | managedFields stripped | default transform | saved |");
        System.out.println("|---|---|---|---|---|---|");
        lines.forEach(System.out::println);
        System.out.println("(java " + System.getProperty("java.version") + ", " + ManagementFactory.getRuntimeMXBean()
                .getInputArguments().stream().filter(a -> a.startsWith("-XX:+Use")).findFirst().orElse("default GC")
                + ", compressed oops " + compressedOops() + ")");
    }

    private record Subject(String name, Class<? extends HasMetadata> type, int count,
            java.util.function.IntFunction<String> json) {
    }

    private static <T extends HasMetadata> long bytesPerObject(Subject subject, UnaryOperator<HasMetadata> transform) {
        // Encode up front so only the decoded objects are measured.
        byte[][] encoded = new byte[subject.count][];
        for (int i = 0; i < subject.count; i++) {
            encoded[i] = subject.json.apply(i).getBytes(StandardCharsets.UTF_8);
        }
        long[] results = new long[RUNS];
        for (int run = 0; run < RUNS; run++) {
            long before = usedAfterGc();
            Indexer<HasMetadata> indexer = Indexer.create();
            for (byte[] bytes : encoded) {
                indexer.add(transform.apply(Json.MAPPER.readValue(bytes, subject.type)));
            }
            long after = usedAfterGc();
            results[run] = (after - before) / subject.count;
            assertThat(indexer.size()).isEqualTo(subject.count);
            java.lang.ref.Reference.reachabilityFence(indexer);
        }
        Arrays.sort(results);
        return results[RUNS / 2];
    }

    private static long usedAfterGc() {
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long used = MEMORY.getHeapMemoryUsage().getUsed();
            if (Math.abs(previous - used) < 64 * 1024) {
                return used;
            }
            previous = used;
        }
        return previous;
    }

    private static String compressedOops() {
        try {
            var bean = ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return bean.getVMOption("UseCompressedOops").getValue();
        } catch (RuntimeException e) {
            return "unknown";
        }
    }

    private static String uid(int i) {
        return new UUID(0x5eed_0000_0000_0000L + i, i * 31L).toString();
    }

    static String configMapJson(int i) {
        String payload = "x".repeat(1000) + String.format(Locale.ROOT, "%024d", i);
        return """
                {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings-%1$d","namespace":"team-%2$d",
                "uid":"%3$s","resourceVersion":"%4$d","creationTimestamp":"2026-11-23T04:00:00Z",
                "labels":{"app.kubernetes.io/name":"web","app.kubernetes.io/part-of":"shop","tier":"frontend"},
                "annotations":{"example.com/owner":"team-%2$d"},
                "managedFields":[{"manager":"kubectl-client-side-apply","operation":"Update","apiVersion":"v1",
                "time":"2026-11-23T04:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:payload":{}},
                "f:metadata":{"f:annotations":{".":{},"f:example.com/owner":{}},"f:labels":{".":{},
                "f:app.kubernetes.io/name":{},"f:app.kubernetes.io/part-of":{},"f:tier":{}}}}}]},
                "data":{"payload":"%5$s"}}
                """.formatted(i, i % 10, uid(i), 100_000 + i, payload);
    }

    static String podJson(int i) {
        return """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-7d4b9c8f6d-%1$05d","generateName":"web-7d4b9c8f6d-",
                "namespace":"team-%2$d","uid":"%3$s","resourceVersion":"%4$d","creationTimestamp":"2026-11-23T04:00:00Z",
                "labels":{"app.kubernetes.io/name":"web","pod-template-hash":"7d4b9c8f6d"},
                "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"web-7d4b9c8f6d",
                "uid":"0f3c2a9e-0000-4000-8000-00000000000%2$d","controller":true,"blockOwnerDeletion":true}],
                "managedFields":[{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1",
                "time":"2026-11-23T04:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},
                "f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:pod-template-hash":{}},"f:ownerReferences":{".":{},
                "k:{\\"uid\\":\\"0f3c2a9e-0000-4000-8000-00000000000%2$d\\"}":{}}},"f:spec":{"f:containers":{
                "k:{\\"name\\":\\"web\\"}":{".":{},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{".":{},
                "k:{\\"containerPort\\":8080,\\"protocol\\":\\"TCP\\"}":{".":{},"f:containerPort":{},"f:name":{},
                "f:protocol":{}}},"f:resources":{".":{},"f:limits":{".":{},"f:memory":{}},"f:requests":{".":{},
                "f:cpu":{},"f:memory":{}}},"f:terminationMessagePath":{},"f:terminationMessagePolicy":{}}},
                "f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},
                "f:securityContext":{},"f:terminationGracePeriodSeconds":{}}}},
                {"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"2026-11-23T04:00:05Z",
                "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\\"type\\":\\"Ready\\"}":{".":{},
                "f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},
                "f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\\"ip\\":\\"10.42.0.%5$d\\"}":{".":{},
                "f:ip":{}}},"f:startTime":{}}},"subresource":"status"}]},
                "spec":{"containers":[{"name":"web","image":"registry.example/shop/web:1.4.2","imagePullPolicy":"IfNotPresent",
                "ports":[{"name":"http","containerPort":8080,"protocol":"TCP"}],
                "env":[{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}},
                {"name":"LOG_LEVEL","value":"info"}],
                "resources":{"limits":{"memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},
                "volumeMounts":[{"name":"kube-api-access-%6$s","readOnly":true,
                "mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}],
                "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
                "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
                "serviceAccountName":"default","serviceAccount":"default","nodeName":"node-%2$d","securityContext":{},
                "schedulerName":"default-scheduler","enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority",
                "priority":0,"tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute",
                "tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute",
                "tolerationSeconds":300}],
                "volumes":[{"name":"kube-api-access-%6$s","projected":{"defaultMode":420,"sources":[
                {"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},
                {"configMap":{"name":"kube-root-ca.crt","items":[{"key":"ca.crt","path":"ca.crt"}]}},
                {"downwardAPI":{"items":[{"path":"namespace","fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"}}]}}]}}]},
                "status":{"phase":"Running","conditions":[
                {"type":"Initialized","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-23T04:00:01Z"},
                {"type":"Ready","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-23T04:00:05Z"},
                {"type":"ContainersReady","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-23T04:00:05Z"},
                {"type":"PodScheduled","status":"True","lastProbeTime":null,"lastTransitionTime":"2026-11-23T04:00:00Z"}],
                "hostIP":"192.168.0.%2$d","podIP":"10.42.0.%5$d","podIPs":[{"ip":"10.42.0.%5$d"}],
                "startTime":"2026-11-23T04:00:00Z","containerStatuses":[{"name":"web","state":{"running":
                {"startedAt":"2026-11-23T04:00:04Z"}},"lastState":{},"ready":true,"restartCount":0,
                "image":"registry.example/shop/web:1.4.2","imageID":"registry.example/shop/web@sha256:%7$s",
                "containerID":"containerd://%7$s","started":true}],"qosClass":"Burstable"}}
                """.formatted(i, i % 10, uid(i), 200_000 + i, i % 250, Integer.toString(36 * 36 * 36 + i, 36),
                String.format(Locale.ROOT, "%064x", (long) i * 2654435761L));
    }
}

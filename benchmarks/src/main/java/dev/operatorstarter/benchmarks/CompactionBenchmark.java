package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.Transforms;
import dev.operatorstarter.client.KubernetesJson;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import tools.jackson.databind.ObjectReader;

/**
 * The default transform's cost per Pod: decoding {@value #PODS} Pods shaped like
 * {@link Dataset#pod} (each as the API server returns it, with its status and managedFields) and
 * passing each through {@link Transforms#defaults()}, beside decoding them alone. The transform
 * compacts in place, so it needs a freshly decoded object each time; the difference of the two
 * figures is the transform's. One transform serves every invocation, as one informer's does, so
 * its pool and what it learnt per field are warm.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CompactionBenchmark {

    static final int PODS = 100;

    private byte[][] pods;
    private ObjectReader reader;
    private UnaryOperator<Pod> transform;

    @Setup
    public void setUp() {
        pods = new byte[PODS][];
        for (int i = 0; i < PODS; i++) {
            pods[i] = KubernetesJson.mapper().writeValueAsBytes(served(i));
        }
        reader = KubernetesJson.mapper().readerFor(Pod.class);
        transform = Transforms.defaults();
    }

    /** {@link Dataset#pod} with what the API server adds: identity, a managedFields entry, a running status. */
    static Pod served(int i) {
        Pod pod = Dataset.pod(i);
        pod.getMetadata().setNamespace("bench");
        pod.getMetadata().setUid(String.format("00000000-0000-0000-0000-%012d", i));
        pod.getMetadata().setResourceVersion(String.valueOf(5000 + i));
        pod.getMetadata().setCreationTimestamp("2026-11-23T08:00:00Z");
        pod.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder()
                .withManager("kubectl").withOperation("Update").withApiVersion("v1").withTime("2026-11-23T08:00:00Z")
                .withFieldsType("FieldsV1").build()));
        pod.setStatus(new PodStatusBuilder().withPhase("Running")
                .withPodIP("10.0." + (i / 250) + "." + (i % 250)).withHostIP("172.18.0.2").withQosClass("Burstable")
                .withStartTime("2026-11-23T08:00:01Z")
                .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime("2026-11-23T08:00:05Z")
                .endCondition()
                .addNewContainerStatus().withName("app").withReady(true).withRestartCount(0).withStarted(true)
                .withImage("registry.example/shop/service-" + (i % 40) + ":1.4." + (i % 7))
                .withContainerID("containerd://" + Integer.toHexString(0x7f000000 + i * 7919)).withNewState()
                .withNewRunning().withStartedAt("2026-11-23T08:00:02Z").endRunning().endState().endContainerStatus()
                .build());
        return pod;
    }

    @Benchmark
    @OperationsPerInvocation(PODS)
    public int decode() {
        int sum = 0;
        for (byte[] json : pods) {
            Pod pod = reader.readValue(json);
            sum += pod.getSpec().getContainers().size();
        }
        return sum;
    }

    @Benchmark
    @OperationsPerInvocation(PODS)
    public int decodeAndTransform() {
        int sum = 0;
        for (byte[] json : pods) {
            Pod pod = transform.apply(reader.readValue(json));
            sum += pod.getSpec().getContainers().size();
        }
        return sum;
    }
}

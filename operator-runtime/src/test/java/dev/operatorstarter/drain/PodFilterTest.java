package dev.operatorstarter.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kubectl drain's filters, a Pod at a time: what the drain does with it under the options. */
class PodFilterTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
    private static final DrainOptions DEFAULTS = DrainOptions.defaults();
    private static final DrainOptions FORCE = DrainOptions.builder().force(true).build();
    private static final DrainOptions EMPTY_DIR = DrainOptions.builder().deleteEmptyDirData(true).build();
    private static final DrainOptions SKIP = DrainOptions.builder().skipTerminatingAfter(Duration.ofMinutes(5)).build();

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("a ReplicaSet's running Pod", DEFAULTS, pod(UnaryOperator.identity()), "Evict"),
                Arguments.of("a DaemonSet's running Pod", DEFAULTS, daemonSet(UnaryOperator.identity()),
                        "LeaveAlone: owned by DaemonSet logs"),
                Arguments.of("a DaemonSet's finished Pod", DEFAULTS, daemonSet(phase("Succeeded")), "Evict"),
                Arguments.of("a mirror Pod", DEFAULTS, mirror(), "LeaveAlone: a mirror Pod: its node's kubelet runs it"
                        + " from a static manifest"),
                Arguments.of("a Pod with emptyDir data", DEFAULTS, pod(emptyDir()),
                        "Refuse: its emptyDir data would be lost (DrainOptions.deleteEmptyDirData)"),
                Arguments.of("a Pod with emptyDir data, allowed", EMPTY_DIR, pod(emptyDir()), "Evict"),
                Arguments.of("a finished Pod with emptyDir data", DEFAULTS, pod(b -> emptyDir().apply(phase("Failed")
                        .apply(b))), "Evict"),
                Arguments.of("a Pod no controller owns", DEFAULTS, pod(noController()),
                        "Refuse: no controller would recreate it (DrainOptions.force)"),
                Arguments.of("a Pod no controller owns, forced", FORCE, pod(noController()), "Evict"),
                Arguments.of("a finished Pod no controller owns", DEFAULTS, pod(b -> noController().apply(
                        phase("Succeeded").apply(b))), "Evict"),
                Arguments.of("a Pod terminating for 2 min", SKIP, pod(deleted("2026-01-01T00:08:00Z")), "Await"),
                Arguments.of("a Pod terminating for 8 min", SKIP, pod(deleted("2026-01-01T00:02:00Z")),
                        "LeaveAlone: terminating since 2026-01-01T00:02:00Z, longer than skipTerminatingAfter (PT5M)"),
                Arguments.of("a Pod terminating for 8 min, no skip", DEFAULTS, pod(deleted("2026-01-01T00:02:00Z")),
                        "Await"),
                Arguments.of("a terminating Pod no controller owns", DEFAULTS, pod(b -> deleted("2026-01-01T00:09:00Z")
                        .apply(noController().apply(b))), "Await"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theDrainTreatsEachPodAsKubectlDoes(String what, DrainOptions options, Pod pod, String expected) {
        PodVerdict verdict = new PodFilter(options).verdict(pod, NOW);

        assertThat(describe(verdict)).isEqualTo(expected);
    }

    private static String describe(PodVerdict verdict) {
        if (verdict instanceof PodVerdict.LeaveAlone alone) {
            return "LeaveAlone: " + alone.reason();
        }
        if (verdict instanceof PodVerdict.Refuse refuse) {
            return "Refuse: " + refuse.reason();
        }
        return verdict.getClass().getSimpleName();
    }

    private static Pod pod(UnaryOperator<PodBuilder> change) {
        return change.apply(new PodBuilder(FakeDrainApi.replicaPod("shop", "web-1", "u1"))).build();
    }

    private static Pod daemonSet(UnaryOperator<PodBuilder> change) {
        return change.apply(new PodBuilder(NodeDrainerTest.daemonSetPod("kube-system", "logs-x"))).build();
    }

    private static Pod mirror() {
        return NodeDrainerTest.mirrorPod("kube-system", "etcd-node-a");
    }

    private static UnaryOperator<PodBuilder> phase(String phase) {
        return builder -> builder.editStatus().withPhase(phase).endStatus();
    }

    private static UnaryOperator<PodBuilder> emptyDir() {
        return builder -> builder.editSpec().addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec();
    }

    private static UnaryOperator<PodBuilder> noController() {
        return builder -> builder.editMetadata().withOwnerReferences().endMetadata();
    }

    private static UnaryOperator<PodBuilder> deleted(String at) {
        return builder -> builder.editMetadata().withDeletionTimestamp(at).endMetadata();
    }
}

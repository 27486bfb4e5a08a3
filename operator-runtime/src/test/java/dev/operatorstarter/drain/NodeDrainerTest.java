package dev.operatorstarter.drain;

import static dev.operatorstarter.drain.FakeDrainApi.budgetRefusal;
import static dev.operatorstarter.drain.FakeDrainApi.replicaPod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The drain's order of steps, its retries of budget refusals with backoff, its waits for evicted
 * Pods, and its deadline, against a fake server and a fake time source that jumps to the end of
 * each wait (so the waits can be read back).
 */
class NodeDrainerTest {

    private final SleepsAdvanceTime time = new SleepsAdvanceTime();
    private final DrainOptions options = DrainOptions.builder().timeSource(time).build();

    @Test
    void cordonsFirstThenEvictsEveryPodButTheDaemonSetsAndMirrorPodsAndReturnsOnceEachIsGone()
            throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).with(replicaPod("shop", "web-2", "u2"))
                .with(daemonSetPod("kube-system", "logs-x")).with(mirrorPod("kube-system", "etcd-node-a"));

        DrainResult result = new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1));

        assertThat(result.evicted()).containsExactly("shop/web-1", "shop/web-2");
        assertThat(result.leftAlone()).containsOnlyKeys("kube-system/logs-x", "kube-system/etcd-node-a");
        assertThat(result.leftAlone().get("kube-system/logs-x")).isEqualTo("owned by DaemonSet logs");
        assertThat(api.requests).startsWith("cordon node-a", "list node-a")
                .contains("evict shop/web-1", "evict shop/web-2", "get shop/web-1", "get shop/web-2")
                .doesNotContain("evict kube-system/logs-x", "evict kube-system/etcd-node-a");
        assertThat(api.unschedulable()).isTrue();
    }

    @Test
    void aBudgetsRefusalIsRetriedWithBackoffThatDoublesUpToTheMaximum() throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).answering("shop/web-1",
                () -> budgetRefusal("web", 2, 2), () -> budgetRefusal("web", 2, 2), () -> budgetRefusal("web", 2, 2),
                () -> budgetRefusal("web", 2, 2), () -> budgetRefusal("web", 2, 2), () -> budgetRefusal("web", 2, 2));

        DrainResult result = new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(5));

        assertThat(result.evicted()).containsExactly("shop/web-1");
        assertThat(Collections.frequency(api.requests, "evict shop/web-1")).isEqualTo(7);
        assertThat(result.budgetRefusals()).isEqualTo(6);
        assertThat(time.sleeps).as("1 s doubling to the 10 s maximum, then one poll until the Pod is gone")
                .containsExactly(seconds(1), seconds(2), seconds(4), seconds(8), seconds(10), seconds(10), seconds(1));
    }

    @Test
    void theServersRetryAfterSetsTheWaitUpToTheMaximum() throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).answering("shop/web-1",
                () -> tooManyRequests(3), () -> tooManyRequests(60));

        new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(5));

        assertThat(time.sleeps).containsExactly(seconds(3), seconds(10), seconds(1));
    }

    @Test
    void atTheDeadlineTheErrorNamesEachPodLeftWithItsBudgetsMessageAndNoWaitOutlastsTheDeadline() {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1"));
        for (int i = 0; i < 20; i++) {
            api.answering("shop/web-1", () -> budgetRefusal("web", 2, 2));
        }
        NodeDrainer drainer = new EvictingNodeDrainer(api, options);

        assertThatThrownBy(() -> drainer.drain("node-a", Duration.ofSeconds(30)))
                .isInstanceOfSatisfying(DrainException.DeadlineExceeded.class, e -> {
                    assertThat(e.node()).isEqualTo("node-a");
                    assertThat(e.pods()).containsExactly("shop/web-1: Cannot evict pod as it would violate the pod's"
                            + " disruption budget. (The disruption budget web needs 2 healthy pods and has 2 currently)"
                            + " (refused 6 times)");
                })
                .hasMessageStartingWith("node node-a was not drained within PT30S; still there: shop/web-1: ");
        assertThat(time.sleeps.stream().reduce(Duration.ZERO, Duration::plus)).isEqualTo(seconds(30));
    }

    @Test
    void aPodHeldByItsBudgetDoesNotHoldUpTheOthers() throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).with(replicaPod("shop", "api-1", "u2"))
                .answering("shop/web-1", () -> budgetRefusal("web", 1, 1), () -> budgetRefusal("web", 1, 1),
                        () -> budgetRefusal("web", 1, 1));

        DrainResult result = new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1));

        assertThat(result.evicted()).containsExactly("shop/api-1", "shop/web-1");
        assertThat(api.requests.indexOf("get shop/api-1")).isLessThan(api.requests.lastIndexOf("evict shop/web-1"));
    }

    @Test
    void anEvictedPodIsCheckedEveryPollIntervalUntilItIsGone() throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).terminatingFor("shop/web-1", 3);

        new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1));

        assertThat(Collections.frequency(api.requests, "get shop/web-1")).isEqualTo(4);
        assertThat(time.sleeps).containsExactly(seconds(1), seconds(1), seconds(1), seconds(1));
    }

    @Test
    void aPodThatNoControllerOwnsOrThatKeepsEmptyDirDataStopsTheDrainBeforeAnyEviction() {
        Pod loose = new PodBuilder(replicaPod("shop", "debug", "u3")).editMetadata().withOwnerReferences().endMetadata()
                .build();
        Pod scratch = new PodBuilder(replicaPod("shop", "cache-1", "u4")).editSpec().addNewVolume().withName("tmp")
                .withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).with(loose).with(scratch);

        assertThatThrownBy(() -> new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1)))
                .isInstanceOfSatisfying(DrainException.Refused.class, e -> assertThat(e.pods()).containsExactly(
                        "shop/debug: no controller would recreate it (DrainOptions.force)",
                        "shop/cache-1: its emptyDir data would be lost (DrainOptions.deleteEmptyDirData)"));
        assertThat(api.requests).containsExactly("cordon node-a", "list node-a");
    }

    @Test
    void forceAndDeleteEmptyDirDataLetThosePodsBeEvicted() throws InterruptedException {
        Pod loose = new PodBuilder(replicaPod("shop", "debug", "u3")).editMetadata().withOwnerReferences().endMetadata()
                .build();
        Pod scratch = new PodBuilder(replicaPod("shop", "cache-1", "u4")).editSpec().addNewVolume().withName("tmp")
                .withNewEmptyDir().endEmptyDir().endVolume().endSpec().build();
        FakeDrainApi api = new FakeDrainApi().with(loose).with(scratch);
        DrainOptions allowing = options.toBuilder().force(true).deleteEmptyDirData(true).build();

        DrainResult result = new EvictingNodeDrainer(api, allowing).drain("node-a", Duration.ofMinutes(1));

        assertThat(result.evicted()).containsExactlyInAnyOrder("shop/debug", "shop/cache-1");
    }

    @Test
    void aPodAlreadyTerminatingIsWaitedForNotEvictedAgain() throws InterruptedException {
        Pod leaving = new PodBuilder(replicaPod("shop", "web-1", "u1")).editMetadata()
                .withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata().build();
        FakeDrainApi api = new FakeDrainApi().with(leaving).alreadyTerminating("shop/web-1", 0);

        DrainResult result = new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1));

        assertThat(result.evicted()).containsExactly("shop/web-1");
        assertThat(api.requests).containsExactly("cordon node-a", "list node-a", "get shop/web-1");
    }

    @Test
    void anEvictionRefusedForAnotherReasonFailsTheDrainNamingThePodAndTheServersAnswer() {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).answering("shop/web-1",
                () -> ApiException.fromStatus(new StatusBuilder().withCode(500).withReason("InternalError")
                        .withMessage("This pod has more than one PodDisruptionBudget, which the eviction subresource"
                                + " does not support.").build(), "POST eviction"));

        assertThatThrownBy(() -> new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1)))
                .isInstanceOf(DrainException.class).hasCauseInstanceOf(ApiException.InternalError.class)
                .hasMessage("draining node node-a: the eviction of Pod shop/web-1 failed: This pod has more than one"
                        + " PodDisruptionBudget, which the eviction subresource does not support.");
    }

    @Test
    void anEvictionWithoutAnAnswerIsAskedAgainAfterBackoff() throws InterruptedException {
        FakeDrainApi api = new FakeDrainApi().with(replicaPod("shop", "web-1", "u1")).answering("shop/web-1",
                () -> new KubernetesClientException("POST eviction: no answer within PT10S"));

        DrainResult result = new EvictingNodeDrainer(api, options).drain("node-a", Duration.ofMinutes(1));

        assertThat(result.evicted()).containsExactly("shop/web-1");
        assertThat(time.sleeps).containsExactly(seconds(1), seconds(1));
    }

    @Test
    void aFailedCordonNamesTheStepAndTheNode() {
        DrainApi api = new FakeDrainApi() {
            @Override
            public void setUnschedulable(String node, boolean unschedulable) {
                throw ApiException.fromStatus(new StatusBuilder().withCode(404).withReason("NotFound")
                        .withMessage("nodes \"node-z\" not found").build(), "PATCH node");
            }
        };

        assertThatThrownBy(() -> new EvictingNodeDrainer(api, options).drain("node-z", Duration.ofMinutes(1)))
                .isInstanceOf(DrainException.class).hasMessageStartingWith("cannot cordon node node-z: ");
    }

    private static Duration seconds(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    private static ApiException tooManyRequests(int retryAfterSeconds) {
        return ApiException.fromStatus(new StatusBuilder().withCode(429).withReason("TooManyRequests")
                .withMessage("slow down").withNewDetails().withRetryAfterSeconds(retryAfterSeconds).endDetails().build(),
                "POST eviction");
    }

    static Pod daemonSetPod(String namespace, String name) {
        return new PodBuilder(replicaPod(namespace, name, name + "-uid")).editMetadata()
                .withOwnerReferences(List.of()).addNewOwnerReference().withApiVersion("apps/v1").withKind("DaemonSet")
                .withName("logs").withUid("ds-uid").withController(true).endOwnerReference().endMetadata().build();
    }

    static Pod mirrorPod(String namespace, String name) {
        return new PodBuilder(replicaPod(namespace, name, name + "-uid")).editMetadata()
                .withOwnerReferences(List.of()).addNewOwnerReference().withApiVersion("v1").withKind("Node")
                .withName("node-a").withUid("node-uid").withController(true).endOwnerReference()
                .addToAnnotations(PodFilter.MIRROR_ANNOTATION, "abc").endMetadata().build();
    }
}

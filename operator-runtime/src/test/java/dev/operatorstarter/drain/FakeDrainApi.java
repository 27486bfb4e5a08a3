package dev.operatorstarter.drain;

import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.rest.ApiException;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The server a drain's unit tests talk to: the node's Pods in memory, evictions answered from a
 * script per Pod (accepted once the script runs out), and a Pod that an accepted eviction makes
 * terminating stays for a set number of checks. Records every request in order.
 */
class FakeDrainApi implements DrainApi {

    final List<String> requests = new ArrayList<>();
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    private final Map<String, Deque<Supplier<RuntimeException>>> evictionAnswers = new HashMap<>();
    private final Map<String, Integer> checksUntilGone = new HashMap<>();
    private final Map<String, Integer> terminating = new HashMap<>();
    private boolean unschedulable;

    FakeDrainApi with(Pod pod) {
        pods.put(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName(), pod);
        return this;
    }

    /** The next evictions of {@code pod} fail with these, in order. */
    @SafeVarargs
    final FakeDrainApi answering(String pod, Supplier<RuntimeException>... answers) {
        evictionAnswers.computeIfAbsent(pod, key -> new ArrayDeque<>()).addAll(List.of(answers));
        return this;
    }

    /** An evicted {@code pod} is still there for {@code checks} checks, then gone. */
    FakeDrainApi terminatingFor(String pod, int checks) {
        checksUntilGone.put(pod, checks);
        return this;
    }

    boolean unschedulable() {
        return unschedulable;
    }

    @Override
    public void setUnschedulable(String node, boolean unschedulable) {
        requests.add((unschedulable ? "cordon " : "uncordon ") + node);
        this.unschedulable = unschedulable;
    }

    @Override
    public List<Pod> podsOn(String node, String podSelector) {
        requests.add("list " + node);
        return List.copyOf(pods.values());
    }

    @Override
    public void evict(String namespace, String name, DeleteOptions options, Duration deadline) {
        String key = namespace + "/" + name;
        requests.add("evict " + key);
        Deque<Supplier<RuntimeException>> answers = evictionAnswers.get(key);
        if (answers != null && !answers.isEmpty()) {
            throw answers.poll().get();
        }
        if (!pods.containsKey(key)) {
            throw ApiException.fromStatus(status(404, "NotFound", "pods \"" + name + "\" not found", null), "POST");
        }
        terminating.putIfAbsent(key, checksUntilGone.getOrDefault(key, 0));
    }

    @Override
    public Optional<Pod> find(String namespace, String name, Duration deadline) {
        String key = namespace + "/" + name;
        requests.add("get " + key);
        Integer left = terminating.get(key);
        if (left != null) {
            if (left == 0) {
                pods.remove(key);
                terminating.remove(key);
            } else {
                terminating.put(key, left - 1);
            }
        }
        return Optional.ofNullable(pods.get(key));
    }

    /** {@code pod} is terminating already (deleted by someone else): still there for {@code checks} checks. */
    FakeDrainApi alreadyTerminating(String pod, int checks) {
        terminating.put(pod, checks);
        return this;
    }

    /** A budget's refusal, as the API server words it. */
    static ApiException.TooManyRequests budgetRefusal(String budget, int desired, int current) {
        return (ApiException.TooManyRequests) ApiException.fromStatus(status(429, "TooManyRequests",
                "Cannot evict pod as it would violate the pod's disruption budget.", "The disruption budget " + budget
                        + " needs " + desired + " healthy pods and has " + current + " currently"), "POST eviction");
    }

    static Status status(int code, String reason, String message, String cause) {
        StatusBuilder status = new StatusBuilder().withCode(code).withReason(reason).withMessage(message)
                .withStatus("Failure");
        if (cause != null) {
            status.withNewDetails().addNewCause().withReason("DisruptionBudget").withMessage(cause).endCause()
                    .endDetails();
        }
        return status.build();
    }

    /** A running Pod of a ReplicaSet, bound to the node. */
    static Pod replicaPod(String namespace, String name, String uid) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withUid(uid)
                .addNewOwnerReference().withApiVersion("apps/v1").withKind("ReplicaSet").withName("web-1")
                .withUid("rs-uid").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("node-a").endSpec().withNewStatus().withPhase("Running").endStatus().build();
    }
}

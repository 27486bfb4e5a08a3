package dev.operatorstarter.drain;

import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** {@link DrainApi} through the typed clients. */
final class ClientDrainApi implements DrainApi {

    private final KubernetesClient client;

    ClientDrainApi(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public void setUnschedulable(String node, boolean unschedulable) {
        // A merge patch of the one field: null removes it, which the API reads as false (kubectl uncordon's result).
        client.coreV1().nodes().patch(node, PatchType.MERGE,
                "{\"spec\":{\"unschedulable\":" + (unschedulable ? "true" : "null") + "}}");
    }

    @Override
    public List<Pod> podsOn(String node, String podSelector) {
        ListOptions options = ListOptions.builder().fieldSelector("spec.nodeName=" + node)
                .labelSelector(podSelector.isEmpty() ? null : podSelector).build();
        try (Stream<Pod> pods = client.coreV1().pods().listAll(options)) {
            return pods.toList();
        }
    }

    @Override
    public void evict(String namespace, String name, DeleteOptions options, Duration deadline) {
        client.policyV1().evictions().withDeadline(capped(deadline)).evict(namespace, name, options);
    }

    @Override
    public Optional<Pod> find(String namespace, String name, Duration deadline) {
        return client.coreV1().pods().inNamespace(namespace).withDeadline(capped(deadline)).find(name);
    }

    /** What is left of the drain's deadline, but no more than the client's own limit for one request. */
    private Duration capped(Duration deadline) {
        Duration limit = client.rest().options().requestTimeout();
        return deadline.compareTo(limit) < 0 ? deadline : limit;
    }
}

package dev.operatorstarter.drain;

import dev.operatorstarter.client.DeleteOptions;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The requests a drain makes, so that its sorting, retries and waits can be tested against a fake.
 * Failures are the client's exceptions ({@code ApiException} for the server's refusals).
 */
interface DrainApi {

    /** Sets or clears the node's {@code spec.unschedulable}. */
    void setUnschedulable(String node, boolean unschedulable);

    /** The Pods bound to {@code node} that match {@code podSelector} ("" for all). */
    List<Pod> podsOn(String node, String podSelector);

    /** One eviction attempt that must finish within {@code deadline}. */
    void evict(String namespace, String name, DeleteOptions options, Duration deadline);

    /** The Pod now, or empty when it does not exist; one attempt within {@code deadline}. */
    Optional<Pod> find(String namespace, String name, Duration deadline);
}

package dev.operatorstarter.drain;

import dev.operatorstarter.client.KubernetesClient;
import java.time.Duration;

/**
 * Cordons and drains nodes, as {@code kubectl cordon} and {@code kubectl drain} do.
 *
 * <p>{@link #drain} cordons the node (sets {@code spec.unschedulable}, so the scheduler places no
 * new Pod there), lists the Pods bound to it and sorts them (see {@link DrainOptions} and the
 * package documentation): Pods a DaemonSet owns and mirror Pods are left alone; a Pod without a
 * controller, or with an {@code emptyDir} volume, stops the drain with {@link DrainException.Refused}
 * before anything is evicted, unless the options allow it. Then it evicts every other Pod through
 * the {@code policy/v1} Eviction API, which honours PodDisruptionBudgets: an eviction a budget
 * refuses (429) is tried again with backoff ({@code initialBackoff} doubling to {@code maxBackoff},
 * or the server's {@code Retry-After}), each Pod on its own schedule, so one blocked Pod does not
 * hold up the others. Each evicted Pod is then checked every {@code pollInterval} until it is gone
 * (deleted, or replaced by a Pod of the same name with another uid).
 *
 * <p><b>Guarantees.</b> Nothing is evicted when a Pod would be refused. Every request and every
 * wait ends by the deadline; each request is one attempt of at most the client's request timeout
 * or what is left of the deadline. A drain that returns has seen every Pod it evicted gone. One
 * blocking call per drain; the drainer is immutable and may drain several nodes from several
 * threads at once.
 *
 * <p><b>Caveats.</b> The node stays cordoned whatever the outcome: call {@link #uncordon} to put it
 * back in service. Pods that arrive on the node after the list (a DaemonSet's, or one that names
 * the node itself and so bypasses the scheduler) are not evicted. Unlike kubectl, a Pod whose
 * DaemonSet no longer exists is still left alone rather than looked up.
 */
public interface NodeDrainer {

    /** A drainer that talks to the server through {@code client}. */
    static NodeDrainer create(KubernetesClient client, DrainOptions options) {
        return new EvictingNodeDrainer(new ClientDrainApi(client), options);
    }

    /** Marks the node unschedulable; does nothing more if it already is. */
    void cordon(String node);

    /** Marks the node schedulable again. */
    void uncordon(String node);

    /**
     * Cordons {@code node} and evicts its Pods, returning once every evicted Pod is gone.
     *
     * @param deadline how long the whole drain may take, budget waits included
     * @return which Pods were removed and which left alone, with why
     * @throws DrainException.Refused when a Pod may not be evicted under the options (none was evicted)
     * @throws DrainException.DeadlineExceeded when Pods remain at the deadline, each named with the
     *     last answer about it (a budget's refusal: {@code The disruption budget web needs 2 healthy
     *     pods and has 2 currently})
     * @throws DrainException when a step fails otherwise (the cordon, the list, an eviction the
     *     server rejects for another reason); its message names the step and the Pod
     * @throws InterruptedException if interrupted while waiting; the drain stops there
     */
    DrainResult drain(String node, Duration deadline) throws InterruptedException;
}

/**
 * Draining a node ({@code kubectl drain}; kubectl's {@code pkg/drain}): {@link
 * dev.operatorstarter.drain.NodeDrainer} cordons the node, then evicts its Pods through the
 * {@code policy/v1} Eviction API, retrying each eviction that a PodDisruptionBudget refuses with
 * backoff, and waits for each evicted Pod to be gone, all within the caller's deadline.
 *
 * <p>Which Pods: those bound to the node, less DaemonSet Pods (their controller ignores the cordon
 * and would put them back) and mirror Pods (their kubelet owns them), which are left alone. A Pod
 * that nothing would recreate (no controller) or that keeps data in an {@code emptyDir} volume
 * stops the drain before any eviction unless {@link dev.operatorstarter.drain.DrainOptions} allows
 * it. A Pod already terminating is waited for, not evicted again.
 *
 * <p>Uses only the client ({@code dev.operatorstarter.client}), {@code time} and {@code internal}.
 */
package dev.operatorstarter.drain;

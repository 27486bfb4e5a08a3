package dev.operatorstarter.client;

import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import java.time.Duration;

/**
 * Evicting Pods: a {@code policy/v1} Eviction posted to a Pod's {@code eviction} subresource
 * (client-go's {@code PolicyV1().Evictions(namespace).Evict}). Get it from
 * {@code client.policyV1().evictions()}.
 *
 * <p>An eviction is a delete that the API server first checks against the PodDisruptionBudgets
 * whose selector matches the Pod. When deleting the Pod now would leave a budget with fewer healthy
 * Pods than it requires, the server refuses with 429: {@link ApiException.TooManyRequests}, whose
 * {@link ApiException#causes() causes} carry the budget's message (reason {@code DisruptionBudget},
 * for example {@code The disruption budget web needs 2 healthy pods and has 2 currently}), and the
 * Pod stays. That refusal is an answer, not overload: each eviction is one attempt, never retried by
 * the client, so the caller decides when to ask again (the drain in
 * {@code dev.operatorstarter.drain} retries with backoff within its deadline). The attempt must
 * finish within the client's {@code requestTimeout}, or within {@link #withDeadline}; like every
 * request with a deadline, it does not wait for the client's rate limiter.
 *
 * <p>An accepted eviction deletes the Pod as {@code options} say (grace period, preconditions, dry
 * run); the Pod then terminates as after any delete, so a caller that needs it gone waits for that.
 *
 * <p>Errors: {@link ApiException.NotFound} when the Pod does not exist;
 * {@link ApiException.TooManyRequests} when a budget forbids the eviction now (or the disruption
 * controller has not yet observed the budget); {@link ApiException.Forbidden} in a namespace that is
 * being deleted (cause {@code NamespaceTerminating}) or without RBAC permission to {@code create}
 * {@code pods/eviction}; {@link ApiException.InternalError} (500) when more than one budget selects
 * the Pod; {@link KubernetesClientException} for transport failures and a missed deadline. Immutable
 * and thread-safe; blocking (not for a Reactor I/O thread).
 */
public interface Evictions {

    /** Evictions whose every attempt must finish within {@code deadline} instead of the client's request timeout. */
    Evictions withDeadline(Duration deadline);

    /**
     * Evicts the Pod {@code name} in {@code namespace}: answers once the server has accepted the
     * eviction (the Pod is then terminating, or already gone), or throws its refusal.
     */
    void evict(String namespace, String name, DeleteOptions options);

    /** {@link #evict(String, String, DeleteOptions)} with the server's default delete options. */
    default void evict(String namespace, String name) {
        evict(namespace, name, DeleteOptions.defaults());
    }
}

package dev.operatorstarter.drain;

import dev.operatorstarter.client.DeleteOptions;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.KubernetesClientException;
import dev.operatorstarter.time.TimeSource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.StatusCause;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Pod's way off the node: its state, and the one request that moves it on. Each state knows
 * when its next request is due, so the drain's loop serves every Pod on its own schedule. Used by
 * one thread.
 */
final class PodEviction {

    private static final Logger log = LoggerFactory.getLogger(NodeDrainer.class);

    /** Where the Pod is on its way. */
    sealed interface State {
        /** The monotonic time its next request is due. */
        long due();

        /** The last answer about the Pod, for the message at the deadline. */
        String lastAnswer();
    }

    /** To be evicted at {@code due}; {@code refusals} evictions were refused so far. */
    record Pending(int refusals, long due, String lastAnswer) implements State {
    }

    /** Evicted or already terminating: to be checked at {@code due} until it is gone. */
    record Terminating(long due, String lastAnswer) implements State {
    }

    /** Deleted, or replaced by another Pod of the same name. */
    record Gone(long due, String lastAnswer) implements State {
    }

    private final String namespace;
    private final String name;
    private final String uid;
    private State state;
    private int budgetRefusals;

    private PodEviction(Pod pod, State state) {
        this.namespace = pod.getMetadata().getNamespace();
        this.name = pod.getMetadata().getName();
        this.uid = pod.getMetadata().getUid();
        this.state = state;
    }

    /** A Pod to evict, at once. */
    static PodEviction toEvict(Pod pod, long now) {
        return new PodEviction(pod, new Pending(0, now, "not evicted yet"));
    }

    /** A Pod already terminating, to wait for. */
    static PodEviction toAwait(Pod pod, long now) {
        return new PodEviction(pod, new Terminating(now, "terminating already"));
    }

    String key() {
        return namespace + "/" + name;
    }

    State state() {
        return state;
    }

    /** How many of its evictions were refused with 429 (a budget, or the server's overload). */
    int budgetRefusals() {
        return budgetRefusals;
    }

    /**
     * Makes the request due for this Pod: an eviction or a check whether it is gone.
     *
     * @param end the drain's deadline: the request must be answered by then
     * @throws DrainException when the server refuses the eviction for a reason waiting will not change
     */
    void step(String node, DrainApi api, DrainOptions options, long end) {
        TimeSource time = options.timeSource();
        Duration left = Duration.ofNanos(Math.max(1, time.nanosUntil(end)));
        if (state instanceof Pending pending) {
            state = evict(node, api, options, pending, left);
        } else if (state instanceof Terminating terminating) {
            state = check(api, options, terminating, left);
        }
    }

    private State evict(String node, DrainApi api, DrainOptions options, Pending pending, Duration left) {
        TimeSource time = options.timeSource();
        DeleteOptions delete = options.gracePeriodSeconds() == null ? DeleteOptions.defaults()
                : DeleteOptions.defaults().withGracePeriodSeconds(options.gracePeriodSeconds());
        try {
            api.evict(namespace, name, delete, left);
            log.debug("Draining node {}: evicted Pod {}", node, key());
            return new Terminating(time.deadlineAfter(options.pollInterval()), "evicted, not gone yet");
        } catch (ApiException.NotFound e) {
            return new Gone(time.nanoTime(), "gone before its eviction");
        } catch (ApiException.TooManyRequests e) {
            budgetRefusals++;
            int refusals = pending.refusals() + 1;
            Duration wait = e.retryAfter().map(asked -> min(asked, options.maxBackoff()))
                    .orElseGet(() -> backoff(options, refusals));
            log.debug("Draining node {}: the eviction of Pod {} was refused ({}); again in {} ms", node, key(), answer(e),
                    wait.toMillis());
            return new Pending(refusals, time.deadlineAfter(wait), answer(e) + " (refused " + refusals
                    + (refusals == 1 ? " time)" : " times)"));
        } catch (ApiException.Forbidden e) {
            if (e.causes().stream().anyMatch(cause -> "NamespaceTerminating".equals(cause.getReason()))) {
                // No eviction in a namespace being deleted; its deletion removes the Pod.
                return new Terminating(time.deadlineAfter(options.pollInterval()), "in a namespace being deleted");
            }
            throw refused(node, e);
        } catch (ApiException e) {
            throw refused(node, e);
        } catch (KubernetesClientException e) {
            // No answer (a timeout, a reset connection): the eviction may or may not have happened; ask again.
            int refusals = pending.refusals() + 1;
            log.debug("Draining node {}: no answer to the eviction of Pod {}, asking again: {}", node, key(),
                    e.getMessage());
            return new Pending(refusals, time.deadlineAfter(backoff(options, refusals)),
                    "no answer to the eviction: " + e.getMessage());
        }
    }

    private State check(DrainApi api, DrainOptions options, Terminating terminating, Duration left) {
        TimeSource time = options.timeSource();
        try {
            Optional<Pod> now = api.find(namespace, name, left);
            if (now.isEmpty() || !uid.equals(now.get().getMetadata().getUid())) {
                return new Gone(time.nanoTime(), "gone");
            }
            return new Terminating(time.deadlineAfter(options.pollInterval()), terminating.lastAnswer());
        } catch (KubernetesClientException e) {
            return new Terminating(time.deadlineAfter(options.pollInterval()),
                    terminating.lastAnswer() + "; could not check it: " + e.getMessage());
        }
    }

    private DrainException refused(String node, ApiException e) {
        return new DrainException(node, "draining node " + node + ": the eviction of Pod " + key() + " failed: "
                + answer(e), e);
    }

    /** The wait after the {@code refusals}th refusal: {@code initialBackoff} doubled each time, capped. */
    static Duration backoff(DrainOptions options, int refusals) {
        Duration wait = options.initialBackoff();
        for (int i = 1; i < refusals && wait.compareTo(options.maxBackoff()) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return min(wait, options.maxBackoff());
    }

    /** The server's message and, in brackets, its causes' (a budget's refusal names the budget there). */
    static String answer(ApiException e) {
        String message = e.status().getMessage() == null ? e.getMessage() : e.status().getMessage();
        String causes = e.causes().stream().map(StatusCause::getMessage).filter(text -> text != null && !text.isEmpty())
                .collect(Collectors.joining("; "));
        return causes.isEmpty() ? message : message + " (" + causes + ")";
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}

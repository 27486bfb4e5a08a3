package dev.operatorstarter.autoconfigure.wiring;

import dev.operatorstarter.autoconfigure.ApiServerUnreachableException;
import dev.operatorstarter.autoconfigure.MissingPermissionsException;
import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.RedactedUri;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.rbac.AccessRule;
import dev.operatorstarter.rbac.AccessRules;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the API server, before any informer starts, for each permission the operator needs
 * (one SelfSubjectAccessReview per verb, resource, namespace and name), so that a missing RBAC
 * rule fails the start-up at once, naming every rule missing, instead of at the cache-sync
 * timeout; and a server that does not answer, or refuses the credentials, fails it within the
 * check's deadline. The cache-sync timeout stays the backstop for what the check cannot see.
 *
 * <p>{@link #begin()} starts it on a thread of its own as the context starts, so that its round
 * trips overlap the web server's and the webhook server's start; {@link #run()} then waits for its
 * result before any informer starts. If that check got no answer in time (it shared the CPU with the
 * servers' start), {@code run()} asks again within what is left of the deadline counted from its own
 * wait, so a server that never answers still fails the start within the deadline. Without
 * {@code begin()}, {@code run()} checks on the caller's thread.
 */
final class PermissionCheck {

    private static final Logger log = LoggerFactory.getLogger(PermissionCheck.class);
    private static final ResourceType<GenericKubernetesResource> ACCESS_REVIEWS = ResourceType.generic(
            new GroupVersionResource("authorization.k8s.io", "v1", "selfsubjectaccessreviews"),
            "SelfSubjectAccessReview", false);
    private static final ResourceType<GenericKubernetesResource> SELF_REVIEWS = ResourceType.generic(
            new GroupVersionResource("authentication.k8s.io", "v1", "selfsubjectreviews"), "SelfSubjectReview", false);
    private static final int THREADS = 8;
    private static final Duration AWAIT_GRACE = Duration.ofSeconds(5);

    private final KubernetesClient client;
    private final Map<String, AccessRules> needs;
    private final Duration timeout;
    private final Object lock = new Object();
    private @Nullable CompletableFuture<Void> begun; // guarded by lock
    private @Nullable Thread checking; // guarded by lock

    /**
     * @param needs by namespace ({@code ""} for cluster-wide), what the operator needs there
     * @param timeout the whole check's deadline
     */
    PermissionCheck(KubernetesClient client, Map<String, AccessRules> needs, Duration timeout) {
        this.client = client;
        this.needs = needs;
        this.timeout = timeout;
    }

    Map<String, AccessRules> needs() {
        return needs;
    }

    /** Starts the check on a daemon thread of its own, once; {@link #run()} waits for its result. */
    void begin() {
        synchronized (lock) {
            if (begun != null) {
                return;
            }
            CompletableFuture<Void> result = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    check(timeout);
                    result.complete(null);
                } catch (RuntimeException | Error e) {
                    result.completeExceptionally(e);
                }
            }, "operator-permission-check");
            thread.setDaemon(true);
            begun = result;
            checking = thread;
            thread.start();
        }
    }

    /** The result of the check {@link #begin()} started; {@code null} before. */
    @Nullable CompletableFuture<Void> begun() {
        synchronized (lock) {
            return begun;
        }
    }

    /** Interrupts a check that {@link #begin()} started and that is still waiting for the server. */
    void cancel() {
        synchronized (lock) {
            if (checking != null) {
                checking.interrupt();
            }
        }
    }

    /**
     * The check's result: the one {@link #begin()} started, waited for, else a check on this thread.
     *
     * @throws MissingPermissionsException naming every rule the server does not allow
     * @throws ApiServerUnreachableException when the server does not answer in time or answers 401
     */
    void run() {
        CompletableFuture<Void> result;
        synchronized (lock) {
            result = begun;
        }
        if (result == null) {
            check(timeout);
            return;
        }
        long waitFrom = System.nanoTime();
        try {
            // the check keeps its own deadline; this bound only guards against a check that never ends
            result.get(timeout.plus(AWAIT_GRACE).toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Duration left = timeout.minusNanos(System.nanoTime() - waitFrom);
            if (e.getCause() instanceof ApiServerUnreachableException early && !early.unauthenticated()
                    && left.compareTo(Duration.ZERO) > 0) {
                // Begun before the web and webhook servers, the check shared the CPU with their start, and
                // its deadline may have passed before this wait began: the server gets the rest of the
                // deadline counted from here, as a check that was not begun early would.
                log.info("The permission check begun at start-up got no answer in time; asking again for {} ms",
                        left.toMillis());
                check(left);
                return;
            }
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException("the permission check failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw unreachable(false, new IllegalStateException("the permission check did not end within " + timeout
                    + " (operator.permission-check.timeout)", e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the operator's permissions", e);
        }
    }

    private void check(Duration budget) {
        List<Check> checks = new ArrayList<>();
        needs.forEach((namespace, rules) -> {
            for (AccessRule rule : rules.rules()) {
                for (String verb : rule.verbs()) {
                    if (rule.resourceNames().isEmpty() || verb.equals("create")) {
                        checks.add(new Check(rule.clusterScoped() ? "" : namespace, rule, verb, ""));
                    } else {
                        rule.resourceNames().forEach(name -> checks.add(new Check(rule.clusterScoped() ? "" : namespace,
                                rule, verb, name)));
                    }
                }
            }
        });
        if (checks.isEmpty()) {
            return;
        }
        long started = System.nanoTime();
        long deadline = started + budget.toNanos();
        String identity = identity(deadline);
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, checks.size()), daemonThreads());
        try {
            List<Future<Boolean>> answers = new ArrayList<>();
            for (Check check : checks) {
                answers.add(pool.submit(() -> allowed(check, deadline)));
            }
            Map<String, List<AccessRule>> missing = new LinkedHashMap<>();
            for (int i = 0; i < checks.size(); i++) {
                Check check = checks.get(i);
                Boolean allowed = answer(answers.get(i), deadline);
                if (allowed == null) {
                    return; // the server cannot answer access reviews: logged, the cache sync is the backstop
                }
                if (!allowed) {
                    missing.computeIfAbsent(check.namespace(), key -> new ArrayList<>()).add(check.missing());
                }
            }
            if (!missing.isEmpty()) {
                Map<String, AccessRules> rules = new LinkedHashMap<>();
                missing.forEach((namespace, list) -> rules.put(namespace, AccessRules.of(list)));
                throw new MissingPermissionsException(identity, rules);
            }
            log.info("The API server allows everything the operator needs: {} access reviews in {} ms", checks.size(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        } finally {
            pool.shutdownNow();
        }
    }

    /** The user the server sees (a SelfSubjectReview), else where the credentials came from. */
    private String identity(long deadline) {
        String source = "the credentials of " + client.config().source();
        try {
            GenericKubernetesResource review = new GenericKubernetesResource();
            review.setApiVersion("authentication.k8s.io/v1");
            review.setKind("SelfSubjectReview");
            review.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
            GenericKubernetesResource answer = client.resources(SELF_REVIEWS).withDeadline(remaining(deadline))
                    .create(review);
            Object status = answer.getAdditionalProperties().get("status");
            if (status instanceof Map<?, ?> map && map.get("userInfo") instanceof Map<?, ?> user
                    && user.get("username") instanceof String name && !name.isBlank()) {
                return name + " (" + source + ")";
            }
        } catch (ApiException.Unauthorized e) {
            throw unreachable(true, e);
        } catch (ApiException e) {
            log.debug("No SelfSubjectReview ({}): the permission check names the credentials' source", e.getMessage());
        } catch (RuntimeException e) {
            throw unreachable(false, e);
        }
        return source;
    }

    private boolean allowed(Check check, long deadline) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        if (!check.namespace().isEmpty()) {
            attributes.put("namespace", check.namespace());
        }
        attributes.put("verb", check.verb());
        attributes.put("group", check.rule().group());
        attributes.put("resource", check.rule().plural());
        if (!check.rule().subresource().isEmpty()) {
            attributes.put("subresource", check.rule().subresource());
        }
        if (!check.name().isEmpty()) {
            attributes.put("name", check.name());
        }
        GenericKubernetesResource review = new GenericKubernetesResource();
        review.setApiVersion("authorization.k8s.io/v1");
        review.setKind("SelfSubjectAccessReview");
        review.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
        review.setAdditionalProperty("spec", Map.of("resourceAttributes", attributes));
        ResourceClient<GenericKubernetesResource> reviews = client.resources(ACCESS_REVIEWS)
                .withDeadline(remaining(deadline));
        Object status = reviews.create(review).getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> map && Boolean.TRUE.equals(map.get("allowed"));
    }

    /** The answer of one review; null when the server cannot answer reviews at all (logged). */
    private @Nullable Boolean answer(Future<Boolean> answer, long deadline) {
        try {
            return answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw unreachable(false, new IllegalStateException("no answer to the access reviews within " + timeout
                    + " (operator.permission-check.timeout)", e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the operator's permissions", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof ApiException.Unauthorized unauthorized) {
                throw unreachable(true, unauthorized);
            }
            if (cause instanceof ApiException refused) {
                // 403 or 404 for the reviews themselves, a 5xx: the server answers, it cannot check
                log.warn("Cannot check the operator's permissions before starting: the API server answered the "
                        + "access review with {}; the informers will say what they may not read", refused.getMessage());
                return null;
            }
            throw unreachable(false, cause);
        }
    }

    private ApiServerUnreachableException unreachable(boolean unauthenticated, Throwable cause) {
        String detail = unauthenticated ? "401 Unauthorized (an expired or wrong token, or a client certificate "
                + "the server does not trust)" : describe(cause);
        return new ApiServerUnreachableException(RedactedUri.text(client.config().server().toString()),
                client.config().source(), unauthenticated, detail, cause);
    }

    /** The failure's own message, and the kind of its root cause (the refusal, the timeout) when that is another. */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        return root == failure ? message : message + " (" + root.getClass().getSimpleName() + ")";
    }

    private static Duration remaining(long deadline) {
        return Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
    }

    private static java.util.concurrent.ThreadFactory daemonThreads() {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "permission-check-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** One access review: {@code verb} on the rule's resource, in {@code namespace} ("" cluster-wide), on {@code name} ("" any). */
    private record Check(String namespace, AccessRule rule, String verb, String name) {

        AccessRule missing() {
            return new AccessRule(rule.group(), rule.resource(), name.isEmpty() ? List.of() : List.of(name), List.of(verb),
                    rule.clusterScoped(), rule.reasons());
        }
    }
}

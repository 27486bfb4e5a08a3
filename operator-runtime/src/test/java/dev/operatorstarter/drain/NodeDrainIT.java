package dev.operatorstarter.drain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.AdminClientExtension;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ClientOptions;
import dev.operatorstarter.client.rest.ApiException;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.WatchEvent;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.KubernetesCluster;
import dev.operatorstarter.test.KubernetesClusters;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import reactor.core.Disposable;

/**
 * A drain on the real API server with KWOK's nodes: a Deployment's three Pods on one node, a
 * PodDisruptionBudget that lets only one of them go at a time, and a DaemonSet. The other nodes stay
 * cordoned until the budget has refused an eviction (the drainer's client counts the 429s), so the
 * budget holds the drain up for certain; once they take Pods, each replacement must be Ready before the next Pod may go, and the
 * drain completes. The DaemonSet's Pod stays. The typed eviction verb's refusal is the server's 429
 * with the budget's message.
 */
@KubernetesTest(nodes = 3)
@ExtendWith(AdminClientExtension.class)
class NodeDrainIT {

    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    /** The test's Pods carry it, valued with their namespace, so that the drain leaves other classes' Pods alone. */
    private static final String LABEL = "drain-it";

    @Test
    void theDrainWaitsForTheBudgetThenCompletesAndLeavesTheDaemonSetsPod(KubernetesClient client,
            KubernetesCluster cluster, TestNamespace namespace) throws Exception {
        List<String> nodes = cluster.ensureNodes(3);
        String target = nodes.get(0);
        String ns = namespace.name();
        AtomicInteger refusals = new AtomicInteger();
        KubernetesClient counted = countingEvictionRefusals(refusals);
        NodeDrainer drainer = NodeDrainer.create(counted, DrainOptions.builder().podSelector(LABEL + "=" + ns)
                .initialBackoff(Duration.ofMillis(200)).maxBackoff(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(200)).build());
        try {
            webPodsAllOn(client, drainer, nodes, ns);
            client.appsV1().daemonSets().inNamespace(ns).create(new DaemonSetBuilder().withNewMetadata()
                    .withName("node-agent").endMetadata().withNewSpec().withNewSelector().addToMatchLabels("app", "agent")
                    .endSelector().withTemplate(template("agent", ns)).endSpec().build());
            String agent = Eventually.await("the DaemonSet's Pod on " + target, TIMEOUT,
                    () -> readyPodsOn(client, ns, "app=agent", target).stream().findFirst().orElse(null),
                    name -> name != null);
            client.policyV1().podDisruptionBudgets().inNamespace(ns).create(new PodDisruptionBudgetBuilder()
                    .withNewMetadata().withName("web").endMetadata().withNewSpec().withMinAvailable(new IntOrString(2))
                    .withNewSelector().addToMatchLabels("app", "web").endSelector().endSpec().build());
            Eventually.await("the budget to allow one disruption", TIMEOUT, () -> client.policyV1()
                    .podDisruptionBudgets().inNamespace(ns).get("web").getStatus().getDisruptionsAllowed() == 1);

            AtomicInteger fewestReady = new AtomicInteger(Integer.MAX_VALUE);
            Disposable watch = watchReadyWebPods(client, ns, fewestReady);
            DrainResult result;
            try {
                CompletableFuture<DrainResult> draining = CompletableFuture.supplyAsync(() -> drain(drainer, target));
                Eventually.await("a replacement web Pod that no node takes yet", TIMEOUT,
                        () -> unschedulable(client, ns, "app=web") > 0);
                Eventually.await("the budget to refuse an eviction", TIMEOUT, () -> refusals.get() > 0);
                assertThat(draining).as("the drain, held by the budget").isNotDone();
                nodes.subList(1, nodes.size()).forEach(drainer::uncordon);
                result = draining.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } finally {
                watch.dispose();
            }

            assertThat(result.evicted()).hasSize(3).allSatisfy(pod -> assertThat(pod).startsWith(ns + "/web-"));
            assertThat(result.budgetRefusals()).as("evictions the budget refused while replacements started")
                    .isEqualTo(refusals.get()).isPositive();
            assertThat(result.leftAlone()).containsEntry(ns + "/" + agent, "owned by DaemonSet node-agent");
            assertThat(fewestReady.get()).as("Ready web Pods during the drain, never below the budget's 2")
                    .isGreaterThanOrEqualTo(2);
            assertThat(readyPodsOn(client, ns, "app=web", target)).isEmpty();
            assertThat(client.coreV1().pods().inNamespace(ns).get(agent).getMetadata().getDeletionTimestamp())
                    .as("the DaemonSet's Pod is not deleted").isNull();
            assertThat(client.coreV1().nodes().get(target).getSpec().getUnschedulable()).isTrue();
            Eventually.await("web to have 3 Ready replicas on the other nodes", TIMEOUT, () -> {
                Deployment web = client.appsV1().deployments().inNamespace(ns).get("web");
                return Integer.valueOf(3).equals(web.getStatus().getReadyReplicas());
            });
        } finally {
            for (String node : nodes) {
                drainer.uncordon(node);
            }
            counted.close();
        }
    }

    @Test
    void anEvictionTheBudgetForbidsIsA429NamingTheBudget(KubernetesClient client, KubernetesCluster cluster,
            TestNamespace namespace) {
        cluster.ensureNodes(3);
        String ns = namespace.name();
        client.appsV1().deployments().inNamespace(ns).create(deployment("solo", 1, ns));
        client.policyV1().podDisruptionBudgets().inNamespace(ns).create(new PodDisruptionBudgetBuilder()
                .withNewMetadata().withName("solo").endMetadata().withNewSpec().withMinAvailable(new IntOrString(1))
                .withNewSelector().addToMatchLabels("app", "solo").endSelector().endSpec().build());
        String pod = Eventually.await("a Ready Pod of solo", TIMEOUT,
                () -> readyPods(client, ns, "app=solo").stream().findFirst().orElse(null), name -> name != null);
        Eventually.await("the budget to have observed its Pod", TIMEOUT, () -> Integer.valueOf(1).equals(client
                .policyV1().podDisruptionBudgets().inNamespace(ns).get("solo").getStatus().getCurrentHealthy()));

        ApiException.TooManyRequests refusal = org.assertj.core.api.Assertions.catchThrowableOfType(
                ApiException.TooManyRequests.class, () -> client.policyV1().evictions().evict(ns, pod));

        assertThat(refusal.status().getMessage()).isEqualTo(
                "Cannot evict pod as it would violate the pod's disruption budget.");
        assertThat(refusal.causes()).anySatisfy(cause -> assertThat(cause.getMessage())
                .isEqualTo("The disruption budget solo needs 1 healthy pods and has 1 currently"));
        assertThat(client.coreV1().pods().inNamespace(ns).get(pod).getMetadata().getDeletionTimestamp()).isNull();
    }

    /** A client of the test cluster that counts the 429s its evictions get, as an interceptor sees them. */
    private static KubernetesClient countingEvictionRefusals(AtomicInteger refusals) {
        ExchangeFilterFunction counter = (request, next) -> next.exchange(request).doOnNext(response -> {
            if (request.url().getPath().endsWith("/eviction") && response.statusCode().value() == 429) {
                refusals.incrementAndGet();
            }
        });
        return KubernetesClient.create(KubeconfigLoader.load(KubernetesClusters.shared().connection().kubeconfig(), null),
                ClientOptions.builder().interceptor(counter).build());
    }

    /**
     * Three web Pods, all on the first node: the other nodes are cordoned, and stay so until the
     * test lets the drain's replacements run there.
     */
    private static void webPodsAllOn(KubernetesClient client, NodeDrainer drainer, List<String> nodes, String ns) {
        nodes.subList(1, nodes.size()).forEach(drainer::cordon);
        client.appsV1().deployments().inNamespace(ns).create(deployment("web", 3, ns));
        Eventually.await("3 Ready web Pods on " + nodes.get(0), TIMEOUT,
                () -> readyPodsOn(client, ns, "app=web", nodes.get(0)).size() == 3);
    }

    private static DrainResult drain(NodeDrainer drainer, String node) {
        try {
            return drainer.drain(node, TIMEOUT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while draining " + node, e);
        }
    }

    /** How many of the selected Pods the scheduler found no node for. */
    private static long unschedulable(KubernetesClient client, String ns, String selector) {
        return client.coreV1().pods().inNamespace(ns).list(ListOptions.builder().labelSelector(selector).build())
                .items().stream().filter(pod -> pod.getStatus() != null && pod.getStatus().getConditions() != null
                        && pod.getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
                                && "Unschedulable".equals(c.getReason())))
                .count();
    }

    private static Disposable watchReadyWebPods(KubernetesClient client, String ns, AtomicInteger fewestReady) {
        ResourceClient<Pod> pods = client.coreV1().pods().inNamespace(ns);
        String from = pods.list(ListOptions.builder().labelSelector("app=web").build()).resourceVersion();
        Set<String> ready = ConcurrentHashMap.newKeySet();
        ready.addAll(readyPods(client, ns, "app=web"));
        fewestReady.set(ready.size());
        return pods.watch(ListOptions.builder().labelSelector("app=web").resourceVersion(from).build())
                .subscribe(event -> {
                    if (event instanceof WatchEvent.Added<Pod> added) {
                        track(ready, added.object(), fewestReady);
                    } else if (event instanceof WatchEvent.Modified<Pod> modified) {
                        track(ready, modified.object(), fewestReady);
                    } else if (event instanceof WatchEvent.Deleted<Pod> deleted) {
                        ready.remove(deleted.object().getMetadata().getName());
                        fewestReady.accumulateAndGet(ready.size(), Math::min);
                    }
                });
    }

    private static void track(Set<String> ready, Pod pod, AtomicInteger fewestReady) {
        if (isReady(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
            ready.add(pod.getMetadata().getName());
        } else {
            ready.remove(pod.getMetadata().getName());
        }
        fewestReady.accumulateAndGet(ready.size(), Math::min);
    }

    private static List<String> readyPodsOn(KubernetesClient client, String ns, String selector, String node) {
        return client.coreV1().pods().inNamespace(ns).list(ListOptions.builder().labelSelector(selector)
                .fieldSelector("spec.nodeName=" + node).build()).items().stream()
                .filter(pod -> isReady(pod) && pod.getMetadata().getDeletionTimestamp() == null)
                .map(pod -> pod.getMetadata().getName()).toList();
    }

    private static List<String> readyPods(KubernetesClient client, String ns, String selector) {
        return client.coreV1().pods().inNamespace(ns).list(ListOptions.builder().labelSelector(selector).build())
                .items().stream().filter(pod -> isReady(pod) && pod.getMetadata().getDeletionTimestamp() == null)
                .map(pod -> pod.getMetadata().getName()).toList();
    }

    private static boolean isReady(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static Deployment deployment(String app, int replicas, String ns) {
        return new DeploymentBuilder().withNewMetadata().withName(app).endMetadata().withNewSpec()
                .withReplicas(replicas).withNewSelector().addToMatchLabels("app", app).endSelector()
                .withTemplate(template(app, ns)).endSpec().build();
    }

    private static PodTemplateSpec template(String app, String ns) {
        return new PodTemplateSpecBuilder().withNewMetadata().addToLabels(Map.of("app", app, LABEL, ns))
                .endMetadata().withNewSpec().addNewContainer().withName(app).withImage(app + ":1").endContainer()
                .endSpec().build();
    }
}

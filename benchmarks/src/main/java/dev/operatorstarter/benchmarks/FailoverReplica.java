package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One replica of ours in the failover run ({@link Failover}), in a JVM of its own: a plain-Java
 * {@link Manager} with leader election on a Lease ({@link Failover#LEASE_DURATION} and the other
 * timings controller-runtime's replica gets too) and one controller over the ConfigMaps of one
 * namespace. Prints the same JSON lines as controller-runtime's replica, so one parser reads both:
 * {@code ready} once the manager has started (caches synced), {@code elected} when it leads, and
 * {@code first-reconcile} at its first reconcile as the leader, each with the wall clock in
 * {@code unixNanos}. Runs until it is killed.
 *
 * <p>Usage: {@code FailoverReplica <kubeconfig> <namespace> <lease> <identity>}
 */
public final class FailoverReplica {

    private FailoverReplica() {
    }

    public static void main(String[] args) throws Exception {
        Path kubeconfig = Path.of(args[0]);
        String namespace = args[1];
        String lease = args[2];
        String identity = args[3];
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        Manager manager = Manager.builder(client)
                .leaderElection(LeaseLock.of(client, namespace, lease, identity), election -> election
                        .leaseDuration(Failover.LEASE_DURATION).renewDeadline(Failover.RENEW_DEADLINE)
                        .retryPeriod(Failover.RETRY_PERIOD).releaseOnClose(false))
                .build();
        AtomicBoolean reconciled = new AtomicBoolean();
        manager.controller(ConfigMap.class).named("configmap").namespaces(namespace).reconcile(request -> {
            if (reconciled.compareAndSet(false, true)) {
                print("first-reconcile", identity);
            }
            return ReconcileResult.done();
        });
        manager.start();
        print("ready", identity);
        while (!manager.isActive(RunnableGroup.LEADER_TERM)) {
            Thread.sleep(Duration.ofMillis(20).toMillis()); // for the log only: the figure is the reconcile line
        }
        print("elected", identity);
        Thread.sleep(Long.MAX_VALUE);
    }

    private static void print(String event, String identity) {
        Instant now = Instant.now();
        System.out.println("{\"scenario\":\"operator\",\"event\":\"" + event + "\",\"identity\":\"" + identity
                + "\",\"unixNanos\":" + (now.getEpochSecond() * 1_000_000_000L + now.getNano()) + "}");
        System.out.flush();
    }
}

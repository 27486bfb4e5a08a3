package dev.operatorstarter.sample;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.ClientConfig;
import dev.operatorstarter.event.EventBroadcaster;
import dev.operatorstarter.event.EventOptions;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.ManagedControllerBuilder;
import dev.operatorstarter.manager.Manager;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * The sample operator in plain Java, without Spring: the same {@link StaticSiteReconciler}, built
 * through the runtime's controller builder with what {@code @Reconciler(owns = {ConfigMap.class,
 * Deployment.class, Service.class}, watches = SitePods.class, finalizer = ..., generationChanged = true)}
 * and {@code operator.informers.resources.pods.label-selector} give the Spring application. Serving webhooks is the starter's part, so this one runs without the sample's
 * validating, defaulting and conversion webhooks.
 */
public final class PlainJavaSampleOperator {

    private PlainJavaSampleOperator() {
    }

    /**
     * The operator's manager on {@code client}, not started: StaticSites in every namespace, their
     * owned ConfigMaps, Deployments and Services, their web-server Pods, Events, and leader election on the Lease
     * {@code sample-operator-leader} in the client's namespace, as {@code identity}.
     */
    public static Manager build(KubernetesClient client, EventBroadcaster events, SampleProperties properties,
            String identity) {
        Manager manager = Manager.builder(client).events(events)
                .leaderElection(LeaseLock.of(client, client.config().namespace(), SampleOperatorApplication.NAME
                        + "-leader", identity), election -> election)
                .selectors(Pod.class, SitePods.LABEL_SELECTOR, "")
                .build();
        ManagedControllerBuilder<StaticSite> sites = manager.controller(StaticSite.class)
                .owns(ConfigMap.class).owns(Deployment.class).owns(Service.class)
                .watches(Pod.class, new SitePods()::map).generationChanged();
        ResourceClient<StaticSite> statuses = sites.tracked(client.resources(StaticSite.class));
        StaticSiteReconciler reconciler = new StaticSiteReconciler(manager.lister(StaticSite.class),
                manager.lister(ConfigMap.class), manager.lister(Pod.class), client,
                events.recorder(SampleOperatorApplication.NAME), properties, Clock.systemUTC(), () -> statuses);
        sites.finalizer(StaticSiteReconciler.FINALIZER, reconciler).reconcile(reconciler);
        return manager;
    }

    /** Runs it with the kubeconfig of {@code KUBECONFIG}, the pod's service account, or {@code ~/.kube/config}. */
    public static void main(String[] args) throws InterruptedException {
        KubernetesClient client = KubernetesClient.create(ClientConfig.load());
        EventBroadcaster events = new EventBroadcaster(client, EventOptions.defaults());
        Manager manager = build(client, events, SampleProperties.defaults(), "plain-java_" + UUID.randomUUID());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            manager.close(); // releases the Lease, stops the informers and the events
            client.close();
            stopped.countDown();
        }, "operator-shutdown"));
        manager.start();
        stopped.await();
    }
}

package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.ResourceEventHandler;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One watch-throughput measurement in a fresh JVM: one subject's informer on {@link WatchServer},
 * counting the adds its handler receives. Prints {@code RESULT <eventsPerSecond>}, measured from
 * the first event to the last. Which transport the watch uses is the server's doing (the kubeconfig
 * names the port of one or the other), so both fabric8 subjects run the same code here.
 *
 * <p>Usage: {@code WatchRun <subject> <kubeconfig> <events>}, the subject a {@link WatchSubject}. With
 * {@code -Dwatch.noTransform=true} ours runs without the default transform ({@code Transforms.none()}), to
 * see what the transform costs; the suite never sets it.
 */
public final class WatchRun {

    private WatchRun() {
    }

    public static void main(String[] args) throws Exception {
        WatchSubject subject = WatchSubject.parse(args[0]);
        Path kubeconfig = Path.of(args[1]);
        int events = Integer.parseInt(args[2]);
        CountDownLatch all = new CountDownLatch(events);
        AtomicLong first = new AtomicLong();
        Runnable onAdd = () -> {
            first.compareAndSet(0, System.nanoTime());
            all.countDown();
        };
        Object keepAlive = switch (subject) {
            case OURS -> ours(kubeconfig, onAdd);
            case FABRIC8, FABRIC8_WEBSOCKET -> fabric8(kubeconfig, onAdd);
            case OFFICIAL -> official(kubeconfig, onAdd);
            case CONTROLLER_RUNTIME -> throw new IllegalArgumentException(
                    "controller-runtime runs as its Go program (ControllerRuntimeRuns.watch), not in a JVM");
        };
        if (!all.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(subject + " received " + (events - all.getCount()) + " of " + events);
        }
        long elapsed = System.nanoTime() - first.get();
        System.out.println("RESULT " + (long) (events / (elapsed / 1e9)) + " " + keepAlive.hashCode());
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    static SharedInformerFactory ours(Path kubeconfig, Runnable onAdd) {
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory factory = new SharedInformerFactory(client, Boolean.getBoolean("watch.noTransform")
                ? InformerOptions.defaults().toBuilder().transform(dev.operatorstarter.cache.Transforms.none()).build()
                : InformerOptions.defaults());
        factory.informerFor(ConfigMap.class, InformerScope.namespace("bench")).addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object, boolean isInInitialList) {
                onAdd.run();
            }

            @Override
            public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            }

            @Override
            public void onDelete(ConfigMap object, boolean finalStateUnknown) {
            }
        });
        factory.start();
        return factory;
    }

    private static Object fabric8(Path kubeconfig, Runnable onAdd) throws Exception {
        io.fabric8.kubernetes.client.KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
        client.configMaps().inNamespace("bench").inform(new io.fabric8.kubernetes.client.informers.ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap object) {
                onAdd.run();
            }

            @Override
            public void onUpdate(ConfigMap oldObject, ConfigMap newObject) {
            }

            @Override
            public void onDelete(ConfigMap object, boolean deletedFinalStateUnknown) {
            }
        });
        return client;
    }

    static io.kubernetes.client.informer.SharedInformerFactory official(Path kubeconfig, Runnable onAdd)
            throws Exception {
        ApiClient client = io.kubernetes.client.util.Config.fromConfig(kubeconfig.toString());
        client.setReadTimeout(0);
        io.kubernetes.client.informer.SharedInformerFactory factory = new io.kubernetes.client.informer.SharedInformerFactory(client);
        factory.sharedIndexInformerFor(new GenericKubernetesApi<>(V1ConfigMap.class, V1ConfigMapList.class, "", "v1",
                "configmaps", client), V1ConfigMap.class, 0L, "bench").addEventHandler(
                new io.kubernetes.client.informer.ResourceEventHandler<>() {
                    @Override
                    public void onAdd(V1ConfigMap object) {
                        onAdd.run();
                    }

                    @Override
                    public void onUpdate(V1ConfigMap oldObject, V1ConfigMap newObject) {
                    }

                    @Override
                    public void onDelete(V1ConfigMap object, boolean deletedFinalStateUnknown) {
                    }
                });
        factory.startAllRegisteredInformers();
        return factory;
    }
}

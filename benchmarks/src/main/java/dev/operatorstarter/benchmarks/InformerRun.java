package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodList;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * One measurement in a fresh JVM: one subject's informer over one namespace, from creating the
 * client until the cache has synced, then the heap it retains after a full GC, then the time a second
 * informer (a new client too) takes to sync in the same JVM, warm. Prints one line:
 * {@code RESULT <syncMillis> <retainedBytes> <cachedObjects> <warmSyncMillis> <rssBytes>}, the last the
 * process's resident set size once synced, after the full GC (-1 where {@code /proc} does not tell it).
 * With {@link HeapHistogram.Dump#ENVIRONMENT} set, it also writes the heap's class histogram before
 * the client and once synced there.
 *
 * <p>Usage: {@code InformerRun <subject> <full|metadata> <configmaps|pods> <namespace> <kubeconfig>}.
 * Metadata only: ours is {@code metadataInformerFor}; the official client's is
 * {@link OfficialMetadataInformer}; fabric8 has none (refused).
 */
public final class InformerRun {

    private InformerRun() {
    }

    public static void main(String[] args) throws Exception {
        Subject subject = Subject.parse(args[0]);
        boolean metadata = Projection.parse(args[1]) == Projection.METADATA_ONLY;
        Workload.Kind kind = Workload.Kind.parse(args[2]);
        String namespace = args[3];
        Path kubeconfig = Path.of(args[4]);
        if (metadata && subject == Subject.FABRIC8) {
            throw new IllegalArgumentException("fabric8 8.0.0 has no metadata-only informer");
        }
        HeapHistogram.Dump histograms = HeapHistogram.Dump.fromEnvironment(subject, kind, metadata, namespace);
        histograms.write("before"); // before the baseline: what writing it leaves behind is in both
        openClassPath();
        long baseline = usedHeapAfterGc();
        long started = System.nanoTime();
        Cache cache = cache(subject, metadata, kind, namespace, kubeconfig);
        awaitSynced(subject, cache);
        long syncMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
        long retained = usedHeapAfterGc() - baseline;
        long rss = residentBytes();
        histograms.write("after");
        int size = cache.size().getAsInt();
        // the same again in this JVM, its classes loaded and its code compiled: what a relist costs a running operator
        long again = System.nanoTime();
        Cache warm = cache(subject, metadata, kind, namespace, kubeconfig);
        awaitSynced(subject, warm);
        long warmMillis = Duration.ofNanos(System.nanoTime() - again).toMillis();
        if (warm.size().getAsInt() != size) {
            throw new IllegalStateException(subject + " cached " + warm.size().getAsInt() + " objects the second time, "
                    + size + " the first");
        }
        System.out.println("RESULT " + syncMillis + " " + retained + " " + size + " " + warmMillis + " " + rss);
        System.out.flush();
        Runtime.getRuntime().halt(0); // no client shutdown noise in the measurement's output
    }

    private static Cache cache(Subject subject, boolean metadata, Workload.Kind kind, String namespace, Path kubeconfig)
            throws Exception {
        boolean pods = kind == Workload.Kind.PODS;
        return switch (subject) {
            case OURS, OURS_NO_TRANSFORM -> ours(subject, metadata, kind.type(), namespace, kubeconfig);
            case FABRIC8 -> fabric8(pods, namespace, kubeconfig);
            case OFFICIAL -> official(metadata, pods, namespace, kubeconfig);
            case CONTROLLER_RUNTIME, CONTROLLER_RUNTIME_NO_TRANSFORM -> throw new IllegalArgumentException(
                    "controller-runtime runs as its Go program (ControllerRuntime), not in a JVM");
        };
    }

    private static void awaitSynced(Subject subject, Cache cache) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (!cache.synced().getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(subject + " did not sync within 5 minutes");
            }
            Thread.onSpinWait();
            Thread.sleep(1);
        }
    }

    /** What the measurement needs of a cache; holding it keeps the informer reachable. */
    private record Cache(BooleanSupplier synced, IntSupplier size, Object keepAlive) {
    }

    private static Cache ours(Subject subject, boolean metadata, Class<? extends HasMetadata> type, String namespace,
            Path kubeconfig) {
        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        InformerOptions.Builder options = InformerOptions.builder();
        if (subject == Subject.OURS_NO_TRANSFORM) {
            options.transform(UnaryOperator.<HasMetadata>identity());
        }
        SharedInformerFactory factory = new SharedInformerFactory(client, options.build());
        InformerScope scope = InformerScope.namespace(namespace);
        dev.operatorstarter.cache.SharedIndexInformer<? extends HasMetadata> informer = metadata
                ? factory.metadataInformerFor(type, scope)
                : factory.informerFor(type, scope);
        factory.start();
        return new Cache(informer::hasSynced, () -> informer.indexer().size(), factory);
    }

    private static Cache fabric8(boolean pods, String namespace, Path kubeconfig) throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        io.fabric8.kubernetes.client.KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        io.fabric8.kubernetes.client.informers.SharedIndexInformer<? extends HasMetadata> informer = pods
                ? client.pods().inNamespace(namespace).inform()
                : client.configMaps().inNamespace(namespace).inform();
        return new Cache(informer::hasSynced, () -> informer.getIndexer().list().size(), client);
    }

    private static Cache official(boolean metadata, boolean pods, String namespace, Path kubeconfig) throws Exception {
        ApiClient client = io.kubernetes.client.util.Config.fromConfig(kubeconfig.toString());
        client.setReadTimeout(0); // watches
        io.kubernetes.client.informer.SharedInformerFactory factory = new io.kubernetes.client.informer.SharedInformerFactory(client);
        io.kubernetes.client.informer.SharedIndexInformer<?> informer;
        if (metadata) {
            informer = OfficialMetadataInformer.register(factory, client, pods ? "pods" : "configmaps", namespace);
        } else {
            informer = pods ? informer(factory, client, V1Pod.class, V1PodList.class, "pods", namespace)
                    : informer(factory, client, V1ConfigMap.class, V1ConfigMapList.class, "configmaps", namespace);
        }
        factory.startAllRegisteredInformers();
        return new Cache(informer::hasSynced, () -> informer.getIndexer().list().size(), factory);
    }

    private static <T extends KubernetesObject, L extends KubernetesListObject> io.kubernetes.client.informer.SharedIndexInformer<T>
            informer(io.kubernetes.client.informer.SharedInformerFactory factory, ApiClient client, Class<T> type,
                    Class<L> listType, String plural, String namespace) {
        return factory.sharedIndexInformerFor(new GenericKubernetesApi<>(type, listType, "", "v1", plural, client), type,
                0L, namespace);
    }

    /**
     * Opens every jar of the class path, as the first lookup of a service or resource does: the JDK
     * then keeps each jar's central directory in the heap (6.9 MiB for this module's class path of
     * 132 jars, which holds all three Java clients and JMH). Done before the baseline so that it is in
     * no subject's figure: it depends on the class path, not on the client, and whichever subject
     * looked up a service first would otherwise pay for every other's jars.
     */
    private static void openClassPath() throws java.io.IOException {
        var resources = ClassLoader.getSystemClassLoader().getResources("META-INF/MANIFEST.MF");
        while (resources.hasMoreElements()) {
            resources.nextElement();
        }
    }

    /** This process's resident set size ({@code VmRSS} of {@code /proc/self/status}), or -1 where that is not there. */
    static long residentBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024; // in kB
                }
            }
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    static long usedHeapAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return used;
    }
}

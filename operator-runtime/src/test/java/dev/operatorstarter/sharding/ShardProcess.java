package dev.operatorstarter.sharding;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.PatchOptions;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.OwnerReferences;
import dev.operatorstarter.controller.ReconcileRequest;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.Leadership;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.ManagedRunnable;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One member of a ring in its own JVM, for {@link ShardingChaosIT}: a {@link Manager} with leader
 * election (Lease {@code <ring>-leader}) and one sharded controller over the ConfigMaps labelled
 * {@value #PRIMARY_SELECTOR}, each of which gets one owned child {@code <name>-child} (labelled
 * {@value #CHILD_SELECTOR}).
 *
 * <p>Its reconcile records two moments about 10 ms apart, taking the time and then checking that
 * its member term is valid (as {@code LeaderElectionProcess} does, so a pause between the two
 * cannot record a moment outside a term), and appends {@code <key> <first> <second>} (wall-clock
 * milliseconds) to its output file, flushed at once; a check that fails records the moments
 * before it only. Then it applies the child, unless the term ended or its cache shows the child
 * with this shard's token.
 *
 * <p>Every 200 ms it writes its state to {@code <id>.status} beside the output (see
 * {@link Status}). When its member Lease is taken ({@code onTainted}) it halts at once with
 * status 3; SIGTERM closes the manager, which releases the member Lease when its reconciles
 * drained.
 *
 * <p>Arguments: kubeconfig namespace ring shard-id output-file lease-ms renew-ms retry-ms workers
 */
public final class ShardProcess {

    /** The primaries' label selector. */
    public static final String PRIMARY_SELECTOR = "chaos=primary";
    /** The children's label selector. */
    public static final String CHILD_SELECTOR = "chaos-child-of";
    /** The exit status of a process whose member Lease was taken. */
    public static final int TAINTED = 3;

    private ShardProcess() {
    }

    /**
     * What a process last wrote to its status file: its member phase, whether it leads, and the
     * keys in its primary cache and how many children its owned cache holds.
     */
    record Status(String phase, boolean leader, List<String> primaries, int children) {

        static Optional<Status> read(Path file) {
            try {
                if (!Files.exists(file)) {
                    return Optional.empty();
                }
                List<String> lines = Files.readAllLines(file);
                String[] head = lines.get(0).split(" ");
                return Optional.of(new Status(head[0], Boolean.parseBoolean(head[1]), lines.subList(1, lines.size()),
                        Integer.parseInt(head[2])));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        static void write(Path file, String phase, boolean leader, List<String> primaries, int children)
                throws IOException {
            List<String> lines = new ArrayList<>();
            lines.add(phase + " " + leader + " " + children);
            lines.addAll(primaries);
            Path written = file.resolveSibling(file.getFileName() + ".tmp");
            Files.write(written, lines);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
    }

    static Path statusFile(Path output, String shardId) {
        return output.resolveSibling(shardId + ".status");
    }

    public static void main(String[] args) throws Exception {
        Path kubeconfig = Path.of(args[0]);
        String namespace = args[1];
        String ring = args[2];
        String id = args[3];
        Path output = Path.of(args[4]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
        Duration renew = Duration.ofMillis(Long.parseLong(args[6]));
        Duration retry = Duration.ofMillis(Long.parseLong(args[7]));
        int workers = Integer.parseInt(args[8]);

        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory informers = new SharedInformerFactory(client, InformerOptions.defaults());
        Sharding sharding = Sharding.builder(client, informers, ShardingOptions.builder(ring, id, namespace)
                        .leaseDuration(lease).renewDeadline(renew).retryPeriod(retry).build())
                .onTainted(() -> {
                    System.out.println("tainted: exiting with status " + TAINTED);
                    System.out.flush();
                    Runtime.getRuntime().halt(TAINTED); // nothing of it may run again; its records are written
                })
                .build();
        Manager manager = Manager.builder(client)
                .informers(informers)
                .leaderElection(LeaseLock.of(client, namespace, ring + "-leader", id), election -> election
                        .leaseDuration(lease).renewDeadline(renew).retryPeriod(retry))
                .plugin(sharding)
                .build();
        InformerScope primaries = InformerScope.namespace(namespace).withLabelSelector(PRIMARY_SELECTOR);
        InformerScope children = InformerScope.namespace(namespace).withLabelSelector(CHILD_SELECTOR);
        ShardedResource<ConfigMap> resource = ShardedResource.of(ResourceType.of(ConfigMap.class), List.of(primaries))
                .owning(ResourceType.of(ConfigMap.class).groupVersionResource(), List.of(children));
        sharding.register(resource);
        SharedIndexInformer<ConfigMap> primaryCache = informers.informerFor(ConfigMap.class, sharding.narrow(primaries));
        SharedIndexInformer<ConfigMap> childCache = informers.informerFor(ConfigMap.class, sharding.narrow(children));
        Controller<ConfigMap> controller = Controller
                .builder(ControllerOptions.builder("chaos").workers(workers).build(), ResourceType.of(ConfigMap.class),
                        primaryCache)
                .owns(childCache)
                .decoratedBy(sharding.decorator(resource, List.of(childCache)))
                .build(request -> reconcile(request, client, primaryCache, childCache, sharding, output));
        sharding.adopt(controller);
        manager.add(ManagedRunnable.of(controller), RunnableGroup.MEMBER_TERM);

        ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "status");
            thread.setDaemon(true);
            return thread;
        });
        Path status = statusFile(output, id);
        reporter.scheduleWithFixedDelay(() -> {
            try {
                List<String> keys = primaryCache.indexer().list().stream()
                        .map(o -> o.getMetadata().getNamespace() + "/" + o.getMetadata().getName()).sorted().toList();
                Status.write(status, sharding.membership().phase().name(), manager.isActive(), keys,
                        childCache.indexer().list().size());
            } catch (IOException | RuntimeException e) {
                System.out.println("status not written: " + e);
            }
        }, 0, 200, TimeUnit.MILLISECONDS);

        CountDownLatch closed = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            reporter.shutdownNow();
            manager.close();
            client.close();
            System.out.println("closed " + id);
            closed.countDown();
        }));
        manager.start();
        System.out.println("started " + id);
        closed.await();
    }

    private static ReconcileResult reconcile(ReconcileRequest request, KubernetesClient client,
            SharedIndexInformer<ConfigMap> primaries, SharedIndexInformer<ConfigMap> children, Sharding sharding,
            Path output) throws InterruptedException {
        Membership membership = sharding.membership();
        Optional<ConfigMap> primary = primaries.indexer().get(request.key());
        if (primary.isEmpty()) {
            return ReconcileResult.done();
        }
        long first = System.currentTimeMillis();
        if (!inTerm(membership)) {
            return ReconcileResult.done(); // the term ended: the controllers stop, a new term replays the cache
        }
        Thread.sleep(10);
        long second = System.currentTimeMillis();
        boolean stillInTerm = inTerm(membership);
        record(output, request.key() + " " + first + " " + (stillInTerm ? second : first));
        String childName = request.name() + "-child";
        boolean childInPlace = children.indexer().get(request.namespace() + "/" + childName)
                .map(c -> c.getMetadata().getLabels().get(sharding.labels().token()))
                .filter(token -> token.equals(sharding.shardId())).isPresent();
        if (!stillInTerm || childInPlace) {
            return ReconcileResult.done();
        }
        ConfigMap child = new ConfigMapBuilder().withNewMetadata().withNamespace(request.namespace())
                .withName(childName).addToLabels(CHILD_SELECTOR, request.name()).endMetadata()
                .addToData("of", request.name()).build();
        OwnerReferences.setController(primary.get(), child); // also copies the shard's token
        client.coreV1().configMaps().inNamespace(request.namespace()).apply(child, PatchOptions.apply("chaos"));
        return ReconcileResult.done();
    }

    private static boolean inTerm(Membership membership) {
        return membership.term().map(Leadership::isValid).orElse(false);
    }

    private static synchronized void record(Path output, String line) {
        try {
            Files.writeString(output, line + "\n", StandardOpenOption.APPEND, StandardOpenOption.CREATE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

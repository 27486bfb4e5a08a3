package dev.operatorstarter.benchmarks;

import dev.operatorstarter.cache.InformerOptions;
import dev.operatorstarter.cache.InformerScope;
import dev.operatorstarter.cache.SharedIndexInformer;
import dev.operatorstarter.cache.SharedInformerFactory;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceType;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.controller.Controller;
import dev.operatorstarter.controller.ControllerOptions;
import dev.operatorstarter.controller.EventFilter;
import dev.operatorstarter.controller.ReconcileResult;
import dev.operatorstarter.leaderelection.LeaderElectionConfig;
import dev.operatorstarter.leaderelection.LeaderElector;
import dev.operatorstarter.leaderelection.LeaseLock;
import dev.operatorstarter.manager.ControllerStatus;
import dev.operatorstarter.manager.ManagedRunnable;
import dev.operatorstarter.manager.Manager;
import dev.operatorstarter.manager.RunnableGroup;
import dev.operatorstarter.sharding.MemberState;
import dev.operatorstarter.sharding.RingStatus;
import dev.operatorstarter.sharding.ShardedResource;
import dev.operatorstarter.sharding.Sharding;
import dev.operatorstarter.sharding.ShardingOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One replica of {@link ShardingScaleOut} in a JVM of its own: a plain-Java {@link Manager} with
 * leader election (Lease {@code <ring>-leader}) and sharding (ring {@code <ring>}, member
 * {@code <id>}, the default lease timings), and one sharded controller over the ConfigMaps
 * labelled {@value #SELECTOR} in one namespace, whose reconcile sleeps a fixed time and records
 * when it began and ended under the object's {@value #WAVE} annotation ({@code 0} without one).
 *
 * <p>Prints {@code started} once the manager started, then answers on standard output, one line
 * per command read from standard input: {@code status <wave>} gets {@code status } and a
 * {@link ReplicaStatus} line; {@code heap} gets {@code heap <bytes>}, the heap used after a full GC
 * minus the same before the client was made (as {@link InformerRun} measures it); {@code exit}, or
 * the end of standard input, halts. If its member Lease is taken it prints {@code tainted} and halts.
 *
 * <p>Usage: {@code ShardReplica <kubeconfig> <namespace> <ring> <id> <reconcileMillis> <workers>}
 */
public final class ShardReplica {

    /** The objects the controller reconciles: {@link Dataset#configMap}'s label. */
    static final String SELECTOR = "app=bench";
    /** The annotation the driver writes to start a wave of changes; its value names the wave. */
    static final String WAVE = "benchmarks.operatorstarter.dev/wave";
    /** The exit status when the member Lease was taken. */
    static final int TAINTED = 3;

    private ShardReplica() {
    }

    public static void main(String[] args) throws Exception {
        Path kubeconfig = Path.of(args[0]);
        String namespace = args[1];
        String ring = args[2];
        String id = args[3];
        long reconcileMillis = Long.parseLong(args[4]);
        int workers = Integer.parseInt(args[5]);
        long baseline = InformerRun.usedHeapAfterGc();

        KubernetesClient client = KubernetesClient.create(KubeconfigLoader.load(kubeconfig, null));
        SharedInformerFactory informers = new SharedInformerFactory(client, InformerOptions.defaults());
        Sharding sharding = Sharding.builder(client, informers, ShardingOptions.builder(ring, id, namespace).build())
                .onTainted(() -> {
                    System.out.println("tainted");
                    System.out.flush();
                    Runtime.getRuntime().halt(TAINTED);
                })
                .build();
        Manager manager = Manager.builder(client)
                .informers(informers)
                .leaderElection(LeaseLock.of(client, namespace, ring + "-leader", id), election -> election)
                .plugin(sharding)
                .build();
        InformerScope scope = InformerScope.namespace(namespace).withLabelSelector(SELECTOR);
        ShardedResource<ConfigMap> resource = ShardedResource.of(ResourceType.of(ConfigMap.class), List.of(scope));
        sharding.register(resource);
        SharedIndexInformer<ConfigMap> share = informers.informerFor(ConfigMap.class, sharding.narrow(scope));
        Tallies tallies = new Tallies();
        Controller<ConfigMap> controller = Controller
                .builder(ControllerOptions.builder("scale-out").workers(workers).build(), ResourceType.of(ConfigMap.class),
                        share)
                .withFilter(EventFilter.resourceVersionChanged())
                .decoratedBy(sharding.decorator(resource, List.of()))
                .build(request -> {
                    Optional<ConfigMap> object = share.indexer().get(request.key());
                    if (object.isEmpty()) {
                        return ReconcileResult.done();
                    }
                    long start = System.currentTimeMillis();
                    Thread.sleep(reconcileMillis);
                    tallies.add(wave(object.get()), start, System.currentTimeMillis());
                    return ReconcileResult.done();
                });
        sharding.adopt(controller);
        manager.add(ManagedRunnable.of(controller), RunnableGroup.MEMBER_TERM);
        manager.start();
        System.out.println("started");
        System.out.flush();

        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = commands.readLine(); command != null && !command.equals("exit");
                command = commands.readLine()) {
            if (command.startsWith("status ")) {
                String wave = command.substring("status ".length()).strip();
                System.out.println("status " + status(manager, sharding, share, tallies, wave).line());
            } else if (command.equals("heap")) {
                System.out.println("heap " + (InformerRun.usedHeapAfterGc() - baseline));
            } else {
                System.out.println("unknown command: " + command);
            }
            System.out.flush();
        }
        Runtime.getRuntime().halt(0); // nothing of a shutdown is measured
    }

    private static String wave(ConfigMap object) {
        Map<String, String> annotations = object.getMetadata().getAnnotations();
        return annotations == null ? "0" : annotations.getOrDefault(WAVE, "0");
    }

    private static ReplicaStatus status(Manager manager, Sharding sharding, SharedIndexInformer<ConfigMap> share,
            Tallies tallies, String wave) {
        RingStatus ring = sharding.status();
        int ready = (int) ring.members().stream().filter(member -> member.state() == MemberState.READY).count();
        int depth = manager.controllers().stream().filter(ControllerStatus::sharded).mapToInt(ControllerStatus::queueDepth)
                .sum();
        return new ReplicaStatus(ring.phase().name(), manager.isActive(), ready,
                ring.unassigned() == null ? -1 : ring.unassigned(), ring.pendingDrains() == null ? -1 : ring.pendingDrains(),
                share.indexer().size(), depth, tallies.total(), tallies.of(wave));
    }

    /** The reconciles of each wave; workers record, the command loop reads. */
    private static final class Tallies {
        private final Map<String, ReplicaStatus.Tally> byWave = new HashMap<>();
        private long total;

        synchronized void add(String wave, long start, long end) {
            byWave.merge(wave, ReplicaStatus.Tally.NONE.plus(start, end), (tally, one) -> tally.plus(start, end));
            total++;
        }

        synchronized ReplicaStatus.Tally of(String wave) {
            return byWave.getOrDefault(wave, ReplicaStatus.Tally.NONE);
        }

        synchronized long total() {
            return total;
        }
    }
}

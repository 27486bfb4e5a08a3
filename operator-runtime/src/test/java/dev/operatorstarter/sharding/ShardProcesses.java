package dev.operatorstarter.sharding;

import dev.operatorstarter.ChildJvm;
import dev.operatorstarter.client.KubernetesClient;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The {@link ShardProcess}es of one ring, as the chaos test drives them: launched with ids
 * {@code s1}, {@code s2}, ... (a new id per process, as the starter's shard ids are), killed,
 * paused, resumed and stopped by signal. Each one's output, status and log are files in one
 * folder; the output of every process ever launched is kept for the {@link ReconcileLog}.
 */
final class ShardProcesses implements AutoCloseable {

    private final KubernetesClient admin;
    private final Path kubeconfig;
    private final String namespace;
    private final String ring;
    private final Duration lease;
    private final Duration renew;
    private final Duration retry;
    private final int workers;
    private final Path folder;
    private final Map<String, Process> live = new LinkedHashMap<>();
    private final Map<String, Path> outputs = new LinkedHashMap<>();
    private int launched;

    ShardProcesses(KubernetesClient admin, Path kubeconfig, String namespace, String ring, Duration lease,
            Duration renew, Duration retry, int workers, Path folder) {
        this.admin = admin;
        this.kubeconfig = kubeconfig;
        this.namespace = namespace;
        this.ring = ring;
        this.lease = lease;
        this.renew = renew;
        this.retry = retry;
        this.workers = workers;
        this.folder = folder;
    }

    /** Starts a process with the next id, and returns the id. */
    String launch() throws IOException {
        Files.createDirectories(folder);
        String id = "s" + ++launched;
        Path output = folder.resolve(id + ".reconciles");
        outputs.put(id, output);
        live.put(id, ChildJvm.start(ShardProcess.class, folder.resolve(id + ".log"), kubeconfig.toString(), namespace,
                ring, id, output.toString(), Long.toString(lease.toMillis()), Long.toString(renew.toMillis()),
                Long.toString(retry.toMillis()), Integer.toString(workers)));
        return id;
    }

    /** The ids of the processes launched and not killed or stopped by the test. */
    Set<String> live() {
        return new TreeSet<>(live.keySet());
    }

    /** The live process that holds the leader Lease; empty while none does. */
    Optional<String> leader() {
        return admin.coordinationV1().leases().inNamespace(namespace).find(ring + "-leader")
                .map(l -> l.getSpec().getHolderIdentity()).filter(live::containsKey);
    }

    /** A live process that does not lead. */
    String follower() {
        String leader = leader().orElseThrow(() -> new IllegalStateException("no leader"));
        return live.keySet().stream().filter(id -> !id.equals(leader)).findFirst().orElseThrow();
    }

    /** The member Lease of process {@code id}, if it exists. */
    Optional<Lease> memberLease(String id) {
        return admin.coordinationV1().leases().inNamespace(namespace).find(ShardLabels.leaseName(ring, id));
    }

    /** What process {@code id} last wrote to its status file. */
    Optional<ShardProcess.Status> status(String id) {
        return ShardProcess.Status.read(ShardProcess.statusFile(outputs.get(id), id));
    }

    /** The reconciles of every process launched so far. */
    ReconcileLog log() {
        return ReconcileLog.read(outputs);
    }

    /** {@code kill -9}, then waits for the process to be gone. */
    void kill(String id) throws InterruptedException {
        Process process = live.remove(id);
        process.destroyForcibly();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException(id + " still runs 10 s after kill -9");
        }
    }

    /** SIGTERM (a graceful shutdown); returns the process, to wait for. */
    Process terminate(String id) {
        Process process = live.remove(id);
        process.destroy();
        return process;
    }

    /** SIGSTOP; the process stays among the live ones until it is {@linkplain #forget forgotten}. */
    void pause(String id) {
        ChildJvm.signal("STOP", live.get(id).pid());
    }

    /** SIGCONT. */
    void resume(String id) {
        ChildJvm.signal("CONT", live.get(id).pid());
    }

    /** Takes {@code id} out of the live processes (it is to exit on its own) and returns it. */
    Process forget(String id) {
        return live.remove(id);
    }

    @Override
    public void close() {
        for (Process process : List.copyOf(live.values())) {
            ChildJvm.signal("CONT", process.pid());
            process.destroyForcibly();
        }
        live.clear();
    }
}

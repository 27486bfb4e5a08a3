package dev.operatorstarter.sharding;

import dev.operatorstarter.ChildJvm;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.faults.FaultProxy;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The {@link ShardProcess}es of one ring, as the chaos test drives them: launched with ids
 * {@code s1}, {@code s2}, ... (a new id per process, as the starter's shard ids are), killed,
 * paused, resumed and stopped by signal, and {@linkplain #reap reaped} when one exits by itself.
 * Each one's output, status and log are files in one folder; the output of every process ever
 * launched is kept for the {@link ReconcileLog}.
 *
 * <p>Processes reach the API server directly, or, once {@link #routeThroughFaultProxies()} was
 * called, each through a {@link FaultProxy} of its own ({@link #proxy}), so that one process's
 * requests can hang or be refused while the others' stay healthy.
 */
final class ShardProcesses implements AutoCloseable {

    private final KubernetesClient admin;
    private final ClusterConnection cluster;
    private final String namespace;
    private final String ring;
    private final Duration lease;
    private final Duration renew;
    private final Duration retry;
    private final int workers;
    private final Path folder;
    private final Map<String, Process> live = new LinkedHashMap<>();
    private final Map<String, Path> outputs = new LinkedHashMap<>();
    private final Map<String, FaultProxy> proxies = new LinkedHashMap<>();
    private boolean throughProxies;
    private int launched;

    ShardProcesses(KubernetesClient admin, ClusterConnection cluster, String namespace, String ring, Duration lease,
            Duration renew, Duration retry, int workers, Path folder) {
        this.admin = admin;
        this.cluster = cluster;
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
        Path kubeconfig = cluster.kubeconfig();
        if (throughProxies) {
            FaultProxy proxy = FaultProxy.start(cluster);
            proxies.put(id, proxy);
            kubeconfig = proxy.connection().kubeconfig();
        }
        live.put(id, ChildJvm.start(ShardProcess.class, folder.resolve(id + ".log"), kubeconfig.toString(), namespace,
                ring, id, output.toString(), Long.toString(lease.toMillis()), Long.toString(renew.toMillis()),
                Long.toString(retry.toMillis()), Integer.toString(workers)));
        return id;
    }

    /** Launches every later process behind a {@link FaultProxy} of its own; those running keep their route. */
    void routeThroughFaultProxies() {
        throughProxies = true;
    }

    /** The fault proxy between process {@code id} and the API server. */
    FaultProxy proxy(String id) {
        FaultProxy proxy = proxies.get(id);
        if (proxy == null) {
            throw new IllegalStateException(id + " reaches the API server directly");
        }
        return proxy;
    }

    /**
     * The ids of the processes launched and not killed, stopped, forgotten or {@linkplain #reap
     * reaped} by the test. One may have exited by itself since: see {@link #reap}.
     */
    Set<String> live() {
        return new TreeSet<>(live.keySet());
    }

    /** The live process that holds the leader Lease; empty while none does. */
    Optional<String> leader() {
        return admin.coordinationV1().leases().inNamespace(namespace).find(ring + "-leader")
                .map(l -> l.getSpec().getHolderIdentity()).filter(live::containsKey);
    }

    /** The ids of every process launched so far, gone ones included. */
    Set<String> launched() {
        return new TreeSet<>(outputs.keySet());
    }

    /** Whether live process {@code id} is still running. */
    boolean isAlive(String id) {
        Process process = live.get(id);
        return process != null && process.isAlive();
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

    /**
     * When the member terms of process {@code id} ended so far, as times of day in this machine's
     * zone, from its log: the elector logs each end ("member ...: stopped leading"), and the log's
     * lines start with the time of day.
     */
    List<LocalTime> memberTermEnds(String id) throws IOException {
        try (Stream<String> lines = Files.lines(folder.resolve(id + ".log"))) {
            return lines.filter(line -> line.contains(" - member ") && line.contains(" stopped leading: "))
                    .map(line -> LocalTime.parse(line.substring(0, line.indexOf(' ')))).toList();
        }
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

    /**
     * Takes the live processes that have exited by themselves out of the live ones (a shard exits
     * with {@link ShardProcess#TAINTED} when it finds its member Lease taken, which the machine's
     * load can cause) and returns their ids with their exit statuses, by id. A paused process has
     * not exited.
     */
    Map<String, Integer> reap() {
        Map<String, Integer> exited = new TreeMap<>();
        live.entrySet().removeIf(entry -> {
            if (entry.getValue().isAlive()) {
                return false;
            }
            exited.put(entry.getKey(), entry.getValue().exitValue());
            return true;
        });
        return exited;
    }

    @Override
    public void close() {
        for (Process process : List.copyOf(live.values())) {
            ChildJvm.signal("CONT", process.pid());
            process.destroyForcibly();
        }
        live.clear();
        proxies.values().forEach(FaultProxy::close);
        proxies.clear();
    }
}

package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Leader election on a real Lease: in one JVM, and across three JVM processes that are killed and paused. */
@KubernetesTest
class LeaderElectionIT {

    private static final Duration LEASE = Duration.ofSeconds(3);
    private static final Duration RENEW = Duration.ofSeconds(2);
    private static final Duration RETRY = Duration.ofMillis(500);
    private static KubernetesClient client;
    private static ClusterConnection cluster;

    @BeforeAll
    static void connect(ClusterConnection connection) {
        cluster = connection;
        client = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
    }

    @AfterAll
    static void close() {
        client.close();
    }

    private static String holder(String namespace, String lease) {
        return client.coordinationV1().leases().inNamespace(namespace).find(lease)
                .map(l -> l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity()).orElse("");
    }

    /** Records terms as "start"/"stop" strings and keeps each term's leadership. */
    static final class Recorder implements LeaderCallbacks {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Leadership> terms = new CopyOnWriteArrayList<>();

        @Override
        public void onStartedLeading(Leadership leadership) {
            terms.add(leadership);
            events.add("start");
        }

        @Override
        public void onStoppedLeading() {
            events.add("stop");
        }
    }

    private static LeaderElector elector(String namespace, String identity, Recorder recorder,
            SimpleMeterRegistry registry) {
        return new LeaderElector(LeaderElectionConfig.builder(LeaseLock.of(client, namespace, "in-jvm", identity),
                recorder).leaseDuration(LEASE).renewDeadline(RENEW).retryPeriod(RETRY).name(identity)
                .metrics(new MicrometerLeaderMetrics(registry)).build());
    }

    @Test
    void oneOfTwoLeadsAClosedLeaderHandsOverAndALeaderThatLostIsElectedAgain(TestNamespace namespace)
            throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Recorder a = new Recorder();
        Recorder b = new Recorder();
        LeaderElector first = elector(namespace.name(), "a", a, registry);
        LeaderElector second = elector(namespace.name(), "b", b, registry);
        first.start();
        await().atMost(Duration.ofSeconds(20)).until(first::isLeader);
        second.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> second.leader().equals("a"));
        assertThat(second.isLeader()).isFalse();
        assertThat(registry.get("leader.election.master.status").tag("name", "a").gauge().value()).isEqualTo(1);
        // Renewals keep what others put on the Lease's metadata.
        client.coordinationV1().leases().inNamespace(namespace.name()).patch("in-jvm",
                dev.operatorstarter.client.rest.PatchType.MERGE, Map.of("metadata", Map.of("labels",
                        Map.of("team", "platform"))));
        String labelled = client.coordinationV1().leases().inNamespace(namespace.name()).get("in-jvm")
                .getMetadata().getResourceVersion();
        await().atMost(Duration.ofSeconds(20)).until(() -> !client.coordinationV1().leases()
                .inNamespace(namespace.name()).get("in-jvm").getMetadata().getResourceVersion().equals(labelled));
        assertThat(client.coordinationV1().leases().inNamespace(namespace.name()).get("in-jvm").getMetadata()
                .getLabels()).containsEntry("team", "platform");

        // Someone else takes the lease (as after a partition): a stops at once, then wins it back
        // when the intruder does not renew, without a restart. b may win instead; one of them leads.
        ResourceClient<Lease> leases = client.coordinationV1().leases().inNamespace(namespace.name());
        Lease lease = leases.get("in-jvm");
        lease.getSpec().setHolderIdentity("intruder");
        leases.update(lease);
        await().atMost(Duration.ofSeconds(20)).until(() -> a.events.contains("stop"));
        assertThat(a.terms.get(0).isValid()).isFalse();
        await().atMost(Duration.ofSeconds(30)).until(() -> first.isLeader() || second.isLeader());
        assertThat(first.isLeader() && second.isLeader()).isFalse();

        LeaderElector leader = first.isLeader() ? first : second;
        LeaderElector follower = leader == first ? second : first;
        long closed = System.nanoTime();
        leader.close();
        await().atMost(Duration.ofSeconds(20)).until(follower::isLeader);
        Duration handover = Duration.ofNanos(System.nanoTime() - closed);
        assertThat(handover).as("a released lease is taken at the next attempt, not after the lease duration")
                .isLessThan(LEASE.plus(RETRY));
        follower.close();
        assertThat(holder(namespace.name(), "in-jvm")).as("released on close").isEmpty();

        // Elected again after losing: a, with no restart, either took the lease back or handed it over.
        assertThat(a.events).startsWith("start", "stop");
        assertThat(registry.get("leader.election.master.status").tag("name", "a").gauge().value()).isZero();
    }

    @Test
    void threeProcessesNeverActAsLeaderAtTheSameTimeThroughKillPauseAndShutdown(TestNamespace namespace,
            @TempDir Path folder) throws Exception {
        Map<String, Process> processes = new LinkedHashMap<>();
        Map<String, Path> outputs = new LinkedHashMap<>();
        try {
            for (String id : List.of("p1", "p2", "p3")) {
                Path output = logs().resolve(id + ".moments");
                Files.deleteIfExists(output);
                outputs.put(id, output);
                processes.put(id, new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp", System.getProperty("java.class.path"), LeaderElectionProcess.class.getName(),
                        cluster.kubeconfig().toString(), namespace.name(), "shared", id, output.toString(),
                        Long.toString(LEASE.toMillis()), Long.toString(RENEW.toMillis()),
                        Long.toString(RETRY.toMillis()))
                        .redirectErrorStream(true).redirectOutput(logs().resolve(id + ".log").toFile()).start());
            }
            String first = awaitLeaderActing(namespace.name(), processes, outputs, "");

            // kill -9 the leader: another acts within the lease duration plus a couple of retry periods.
            processes.get(first).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            long killed = System.currentTimeMillis();
            String second = awaitLeaderActing(namespace.name(), processes, outputs, first);
            long takeover = ActingLog.firstMomentAfter(outputs.get(second), killed) - killed;
            System.out.printf("kill -9 of %s: %s acted %d ms later (lease %d ms, retry %d ms)%n", first, second,
                    takeover, LEASE.toMillis(), RETRY.toMillis());
            // A candidate sees the last renewal up to a (jittered) retry period late and takes over when
            // the lease, counted from then, runs out: lease + retry, plus 1 s for scheduling three JVMs
            // on a small machine.
            assertThat(takeover).as("ms from kill -9 to the next leader acting")
                    .isLessThan(LEASE.plus(RETRY).plusSeconds(1).toMillis());

            // SIGSTOP the leader for longer than the lease, then SIGCONT: the third takes over, and the
            // paused one does not act again when it resumes.
            long pid = processes.get(second).pid();
            signal("STOP", pid);
            String third = awaitLeaderActing(namespace.name(), processes, outputs, second);
            signal("CONT", pid);
            long resumed = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(20)).until(() -> holder(namespace.name(), "shared").equals(third)
                    && ActingLog.lastMoment(outputs.get(third)) > resumed + RETRY.toMillis() * 4);

            // Graceful shutdown (SIGTERM): the lease is released and the paused-then-resumed process takes over fast.
            processes.get(third).destroy();
            long stopped = System.currentTimeMillis();
            assertThat(processes.get(third).waitFor(20, TimeUnit.SECONDS)).isTrue();
            String fourth = awaitLeaderActing(namespace.name(), processes, outputs, third);
            assertThat(fourth).isEqualTo(second);
            long handover = ActingLog.firstMomentAfter(outputs.get(fourth), stopped) - stopped;
            System.out.printf("SIGTERM of %s: %s acted %d ms later%n", third, fourth, handover);
            assertThat(handover).as("ms from SIGTERM to the next leader").isLessThan(LEASE.toMillis());
        } finally {
            processes.values().forEach(process -> {
                signal("CONT", process.pid());
                process.destroyForcibly();
            });
        }
        // No two processes ever acted at overlapping times.
        assertThat(ActingLog.overlaps(outputs, 0, Long.MAX_VALUE)).isEmpty();
        long terms = outputs.values().stream().mapToLong(output -> ActingLog.intervals(output).size()).sum();
        assertThat(terms).as("terms observed").isGreaterThanOrEqualTo(4);
    }
    /** The candidates' output, kept in target/ for a look after a failure. */
    private static Path logs() throws IOException {
        return Files.createDirectories(Path.of("target", "leader-election-it"));
    }

    /** Waits until a process other than {@code previous} holds the lease and has recorded acting. */
    private static String awaitLeaderActing(String namespace, Map<String, Process> processes, Map<String, Path> outputs,
            String previous) {
        long since = System.currentTimeMillis();
        String[] leader = new String[1];
        await().atMost(Duration.ofSeconds(40)).until(() -> {
            String holder = holder(namespace, "shared");
            if (holder.isEmpty() || holder.equals(previous) || !processes.containsKey(holder)) {
                return false;
            }
            leader[0] = holder;
            return ActingLog.lastMoment(outputs.get(holder)) >= since;
        });
        return leader[0];
    }

    static void signal(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start().waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

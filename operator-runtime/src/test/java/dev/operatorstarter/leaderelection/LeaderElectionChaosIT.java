package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.ChildJvm;
import dev.operatorstarter.Overlaps;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.Injection;
import dev.operatorstarter.test.faults.RequestMatcher;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Leader election under faults, as repeated trials: three candidates in JVM processes of their
 * own, each reaching the real API server through a {@link FaultProxy} of its own, so one
 * candidate's connection can hang, be refused with 429s or slowed while the others' stay healthy.
 * Every moment each candidate acted as leader is recorded (see {@link LeaderElectionProcess}); in
 * every trial no two candidates' acting intervals may overlap, and a new leader must act.
 *
 * <p>Trials per scenario: {@code -Dchaos.trials} (default 1; the {@code chaos} profile runs 20).
 * A table of the figures is written to {@code target/chaos/leader-election.md} and printed.
 */
@KubernetesTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeaderElectionChaosIT {

    // Short, so that 100 trials fit in a few minutes; the guarantees do not depend on the durations.
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(300);
    private static final int TRIALS = Integer.getInteger("chaos.trials", 1);
    private static final String LEASE_NAME = "chaos";
    private static final List<String> IDS = List.of("c1", "c2", "c3");

    private static ClusterConnection cluster;
    private static KubernetesClient admin;
    private static String namespace;
    private static final Map<String, FaultProxy> proxies = new LinkedHashMap<>();
    private static final Map<String, Process> processes = new LinkedHashMap<>();
    private static final Map<String, Path> outputs = new LinkedHashMap<>();
    private static final List<String> table = new ArrayList<>();

    @BeforeAll
    static void startCandidates(ClusterConnection connection, TestNamespace testNamespace) throws IOException {
        cluster = connection;
        namespace = testNamespace.name();
        admin = KubernetesClient.create(KubeconfigLoader.load(connection.kubeconfig(), null));
        Files.createDirectories(logs());
        for (String id : IDS) {
            proxies.put(id, FaultProxy.start(connection));
            Path output = logs().resolve(id + ".moments");
            Files.deleteIfExists(output);
            outputs.put(id, output);
            launch(id);
        }
    }

    @AfterAll
    static void stopCandidates() throws IOException {
        processes.values().forEach(process -> {
            ChildJvm.signal("CONT", process.pid());
            process.destroyForcibly();
        });
        proxies.values().forEach(FaultProxy::close);
        if (admin != null) {
            admin.close();
        }
        Path report = Files.createDirectories(Path.of("target", "chaos")).resolve("leader-election.md");
        List<String> lines = new ArrayList<>();
        lines.add("| scenario | trials | passed | max acting overlap (ms) | takeover median / max (ms) |");
        lines.add("|---|---|---|---|---|");
        lines.addAll(table);
        Files.write(report, lines);
        lines.forEach(System.out::println);
    }

    private static Path logs() {
        return Path.of("target", "leader-election-chaos-it");
    }

    private static void launch(String id) throws IOException {
        Path kubeconfig = proxies.get(id).connection().kubeconfig();
        processes.put(id, ChildJvm.start(LeaderElectionProcess.class, logs().resolve(id + ".log"),
                kubeconfig.toString(), namespace, LEASE_NAME, id, outputs.get(id).toString(),
                Long.toString(LEASE.toMillis()), Long.toString(RENEW.toMillis()), Long.toString(RETRY.toMillis())));
    }

    /** The requests a candidate makes for the Lease. */
    private static RequestMatcher leaseRequests() {
        return RequestMatcher.pathPrefix("/apis/coordination.k8s.io/v1/namespaces/" + namespace + "/leases");
    }

    private static String holder() {
        return admin.coordinationV1().leases().inNamespace(namespace).find(LEASE_NAME)
                .map(l -> l.getSpec().getHolderIdentity() == null ? "" : l.getSpec().getHolderIdentity()).orElse("");
    }

    /** Waits until a candidate other than {@code previous} holds the lease and has acted since {@code since}. */
    private static String awaitLeaderActing(String previous, long since) {
        String[] leader = new String[1];
        await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(50)).until(() -> {
            String holder = holder();
            if (holder.isEmpty() || holder.equals(previous) || !outputs.containsKey(holder)) {
                return false;
            }
            leader[0] = holder;
            return ActingLog.lastMoment(outputs.get(holder)) >= since;
        });
        return leader[0];
    }

    /** What one trial does to the current leader; returns how to undo it. */
    @FunctionalInterface
    private interface Scenario {
        Runnable apply(String leader) throws Exception;
    }

    /**
     * Runs the trials of one scenario: a leader acts, the fault starts, a new leader must act
     * (when {@code expectTakeover}) or the old one must keep leading, the fault ends; then no two
     * candidates' acting intervals may overlap within the trial.
     */
    private static void trials(String name, boolean expectTakeover, Scenario scenario) throws Exception {
        List<Long> takeovers = new ArrayList<>();
        long maxOverlap = 0;
        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            long trialStart = System.currentTimeMillis();
            String leader = awaitLeaderActing("", trialStart);
            long faultAt = System.currentTimeMillis();
            Runnable undo = scenario.apply(leader);
            boolean ok;
            try {
                if (expectTakeover) {
                    String next = awaitLeaderActing(leader, faultAt);
                    takeovers.add(ActingLog.firstMomentAfter(outputs.get(next), faultAt) - faultAt);
                    ok = true;
                } else {
                    // Three lease durations under the fault: the leader keeps the lease and keeps acting.
                    long until = faultAt + 3 * LEASE.toMillis();
                    await().atMost(Duration.ofSeconds(30)).until(() -> !holder().equals(leader)
                            || ActingLog.lastMoment(outputs.get(leader)) >= until);
                    ok = holder().equals(leader);
                    if (!ok) {
                        failures.add("trial " + trial + ": the leader " + leader + " lost the lease to " + holder());
                    }
                }
            } finally {
                undo.run();
            }
            // Judge the trial once a leader has acted for four retry periods after the fault ended: a
            // paused candidate has resumed by then, and would have acted if it were going to.
            long undone = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(40)).until(() -> {
                String holder = holder();
                return outputs.containsKey(holder)
                        && ActingLog.lastMoment(outputs.get(holder)) >= undone + RETRY.toMillis() * 4;
            });
            List<Overlaps.Overlap> overlaps = ActingLog.overlaps(outputs, trialStart, System.currentTimeMillis());
            for (Overlaps.Overlap overlap : overlaps) {
                maxOverlap = Math.max(maxOverlap, overlap.length());
                failures.add("trial " + trial + ": " + overlap);
            }
            if (ok && overlaps.isEmpty()) {
                passed++;
            }
        }
        List<Long> sorted = takeovers.stream().sorted().toList();
        String takeover = sorted.isEmpty() ? "n/a (no takeover expected)"
                : sorted.get((sorted.size() - 1) / 2) + " / " + sorted.get(sorted.size() - 1);
        table.add("| " + name + " | " + TRIALS + " | " + passed + " | " + maxOverlap + " | " + takeover + " |");
        assertThat(failures).as(name).isEmpty();
        assertThat(passed).isEqualTo(TRIALS);
    }

    @Test
    @Order(1)
    void theLeadersRenewalsHangAnotherLeadsAndTheyNeverBothAct() throws Exception {
        trials("renewals hang (the leader's Lease requests never answered)", true, leader -> {
            Injection hang = proxies.get(leader).inject(leaseRequests(), Fault.hang());
            return () -> {
                hang.remove();
                hang.release();
            };
        });
    }

    @Test
    @Order(2)
    void aTooManyRequestsStormOnTheLeadersConnectionHandsTheLeaseOver() throws Exception {
        trials("429 storm with Retry-After: 5 on the leader's connection", true, leader -> {
            Injection storm = proxies.get(leader).inject(leaseRequests(), Fault.tooManyRequests(Duration.ofSeconds(5)));
            return storm::remove;
        });
    }

    @Test
    @Order(3)
    void slowReadsOnTheCandidatesNeverShortenTheLeadersLease() throws Exception {
        // Each read of the Lease by a candidate answers 1 s late: twice the lease minus the renew deadline.
        trials("slow reads on the candidates (1 s per Lease response)", false, leader -> {
            List<Injection> slow = new ArrayList<>();
            proxies.forEach((id, proxy) -> {
                if (!id.equals(leader)) {
                    slow.add(proxy.inject(leaseRequests().method("GET"), Fault.latency(Duration.ZERO,
                            Duration.ofSeconds(1))));
                }
            });
            return () -> slow.forEach(Injection::remove);
        });
    }

    @Test
    @Order(4)
    void aLeaderPausedPastItsLeaseDoesNotActWhenItResumes() throws Exception {
        trials("SIGSTOP of the leader past the lease, then SIGCONT", true, leader -> {
            long pid = processes.get(leader).pid();
            ChildJvm.signal("STOP", pid);
            return () -> ChildJvm.signal("CONT", pid);
        });
    }

    @Test
    @Order(5)
    void aKilledLeaderIsReplacedWithinTheLeasePlusARetry() throws Exception {
        trials("kill -9 of the leader", true, leader -> {
            processes.get(leader).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return () -> relaunch(leader, "kill -9");
        });
    }

    @Test
    @Order(6)
    void aLeaderShutDownGracefullyReleasesTheLeaseAndAnotherLeadsAtOnce() throws Exception {
        trials("SIGTERM of the leader (graceful shutdown releases the lease)", true, leader -> {
            Process process = processes.get(leader);
            process.destroy();
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("exited after SIGTERM").isTrue();
            return () -> relaunch(leader, "SIGTERM");
        });
    }

    private static void relaunch(String id, String after) {
        try {
            Files.writeString(logs().resolve(id + ".log"), "--- restarted after " + after + "\n",
                    StandardOpenOption.APPEND, StandardOpenOption.CREATE);
            launch(id);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

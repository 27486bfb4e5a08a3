package dev.operatorstarter.sharding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.operatorstarter.Overlaps;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.client.rest.ListOptions;
import dev.operatorstarter.client.rest.PatchType;
import dev.operatorstarter.test.ClusterConnection;
import dev.operatorstarter.test.KubernetesTest;
import dev.operatorstarter.test.TestNamespace;
import dev.operatorstarter.test.faults.Fault;
import dev.operatorstarter.test.faults.FaultProxy;
import dev.operatorstarter.test.faults.Injection;
import dev.operatorstarter.test.faults.RequestMatcher;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.DoubleSummaryStatistics;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Sharding under faults, across JVMs ({@code docs/design/sharding.md}, "How it is proved"; the
 * results: {@code docs/reliability/sharding.md}): a ring of {@link ShardProcess}es, each in a JVM
 * of its own with its own client, shards the ConfigMaps of a test namespace; the test kills, pauses
 * and stops them with signals, scales the ring, and (in the scenarios that start with
 * {@link ShardProcesses#routeThroughFaultProxies()}) hangs, refuses or cuts off one process's
 * requests to the API server at its own {@link FaultProxy}. Every reconcile of every process is
 * recorded ({@link ReconcileLog}); after every trial no two processes' reconciles of one object may
 * share a moment, over the whole run so far. The objects of a shard that died, paused or was cut off
 * may be reconciled elsewhere only after its member Lease was taken (or, after SIGTERM, released):
 * the order is checked, from the Lease's acquire time and the log's moments; how long the move took
 * is a figure of the table, never bounded, since a loaded machine makes it slower, not wrong.
 *
 * <p>Where each object belongs is the {@link HashRing}'s prediction over the live processes' ids,
 * computed here: every object must carry that token, have been reconciled last by that process,
 * and each process's primary cache (from its status file) must hold exactly its share. A shard that
 * exits by itself (the load starved it past its lease, and the assigner took its Lease) leaves the
 * ring, as it leaves the assigner's; it must have exited tainted, and it is counted in the table.
 *
 * <p>The default build runs the untagged kill -9 scenario, one trial over 300 objects. The
 * scenarios tagged {@code chaos} run only in the {@code chaos} profile, which runs every scenario
 * with 20 trials over 1,000 objects; {@code -Dchaos.trials} and {@code -Dsharding.objects} change
 * both. A table of the figures is written to {@code target/chaos/sharding.md} and printed.
 */
@KubernetesTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardingChaosIT {

    // As short as the leader-election chaos test's; the guarantees do not depend on the durations.
    private static final Duration LEASE = Duration.ofSeconds(2);
    private static final Duration RENEW = Duration.ofMillis(1500);
    private static final Duration RETRY = Duration.ofMillis(300);
    private static final Duration WAIT = Duration.ofSeconds(120);
    /** A pause shorter than the lease minus the renew deadline (500 ms): nothing may move. */
    private static final Duration SHORT_PAUSE = Duration.ofMillis(300);
    /** A 429 storm shorter than the lease: half of it. */
    private static final Duration STORM = Duration.ofSeconds(1);
    private static final int TRIALS = Integer.getInteger("chaos.trials", 1);
    private static final int OBJECTS = Integer.getInteger("sharding.objects", 300);
    private static final int WORKERS = 4;
    private static final String RING = "chaos";
    private static final ShardLabels LABELS = new ShardLabels(RING, "any");
    private static final List<String> table = new CopyOnWriteArrayList<>();

    private KubernetesClient admin;
    private String ns;
    private ShardProcesses shards;
    /** Whether the scenario is setting a trial up (launching shards, waiting for the shares), or running one. */
    private boolean settingUp;
    /** The shards of this scenario that exited tainted by themselves (see {@link #reapLostToLoad}), during setup. */
    private final List<String> lostDuringSetup = new ArrayList<>();
    /** The same, during the trials. */
    private final List<String> lostDuringTrials = new ArrayList<>();

    @BeforeEach
    void connect(ClusterConnection cluster, TestNamespace namespace, TestInfo test) throws IOException {
        ns = namespace.name();
        admin = KubernetesClient.create(KubeconfigLoader.load(cluster.kubeconfig(), null));
        Path folder = Path.of("target", "sharding-chaos-it", test.getTestMethod().orElseThrow().getName());
        if (Files.exists(folder)) {
            try (Stream<Path> files = Files.walk(folder)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
        shards = new ShardProcesses(admin, cluster, ns, RING, LEASE, RENEW, RETRY, WORKERS, folder);
    }

    @AfterEach
    void stop() {
        shards.close();
        admin.close();
    }

    @AfterAll
    static void report() throws IOException {
        Path report = Files.createDirectories(Path.of("target", "chaos")).resolve("sharding.md");
        List<String> lines = new ArrayList<>();
        lines.add("| scenario | objects | trials | passed | max overlap (ms) | reassigned, median / max (ms) "
                + "| moved fraction | outcomes |");
        lines.add("|---|---|---|---|---|---|---|---|");
        lines.addAll(table);
        Files.write(report, lines);
        lines.forEach(System.out::println);
    }

    // ---- the scenarios

    @Test
    @Order(1)
    void aKilledShardsObjectsAreReconciledElsewhereOnlyOnceItsLeaseWasTaken() throws Exception {
        trials("kill -9 of a shard (not the leader)", () -> {
            String victim = shards.follower();
            Set<String> held = shareOf(victim);
            long killedAt = System.currentTimeMillis();
            shards.kill(victim);

            List<Long> reassigned = awaitReconciledElsewhere(held, victim, killedAt);

            movedOnlyAfter(victim, held, killedAt, awaitTaken(victim), "taken");
            awaitShares();
            return Figures.reassigned(reassigned);
        });
    }

    @Test
    @Order(2)
    @Tag("chaos")
    void aShardPausedPastItsLeaseLosesItsObjectsAndNeverReconcilesAgainWhenResumed() throws Exception {
        trials("SIGSTOP of a shard past the lease, then SIGCONT", () -> {
            String victim = shards.follower();
            Set<String> held = shareOf(victim);
            long pausingAt = System.currentTimeMillis();
            shards.pause(victim);
            long pausedAt = System.currentTimeMillis();

            List<Long> reassigned = awaitReconciledElsewhere(held, victim, pausingAt);
            movedOnlyAfter(victim, held, pausingAt, awaitTaken(victim), "taken");
            shards.resume(victim);
            Process resumed = shards.forget(victim);

            assertThat(resumed.waitFor(30, TimeUnit.SECONDS)).as("%s exited after SIGCONT", victim).isTrue();
            assertThat(resumed.exitValue()).as("%s's exit status (tainted)", victim).isEqualTo(ShardProcess.TAINTED);
            assertThat(shards.log().lastMoment(victim).orElseThrow()).as("the last moment %s recorded", victim)
                    .isLessThan(pausedAt);
            awaitShares();
            return Figures.reassigned(reassigned);
        });
    }

    @Test
    @Order(3)
    @Tag("chaos")
    void aShardShutDownGracefullyReleasesItsLeaseAndItsObjectsMoveWithoutWaitingForExpiry() throws Exception {
        trials("SIGTERM of a shard (releases its Lease)", () -> {
            String victim = shards.follower();
            Set<String> held = shareOf(victim);
            Lease before = shards.memberLease(victim).orElseThrow();
            long stoppedAt = System.currentTimeMillis();
            Process stopping = shards.terminate(victim);

            List<Long> reassigned = awaitReconciledElsewhere(held, victim, stoppedAt);

            assertThat(stopping.waitFor(30, TimeUnit.SECONDS)).as("%s exited after SIGTERM", victim).isTrue();
            // Moved on the release, not on expiry: the Lease was never taken by the assigner.
            Lease released = shards.memberLease(victim).orElseThrow();
            assertThat(released.getSpec().getHolderIdentity()).as("%s's member Lease, released by %s itself", victim,
                    victim).isEmpty();
            assertThat(released.getSpec().getLeaseTransitions()).as("its transitions")
                    .isEqualTo(before.getSpec().getLeaseTransitions());
            movedOnlyAfter(victim, held, stoppedAt, acquiredAt(released), "released");
            awaitShares();
            return Figures.reassigned(reassigned);
        });
    }

    @Test
    @Order(4)
    @Tag("chaos")
    void aFourthShardReceivesAboutAQuarterOfTheObjectsAllOfThemFromTheOthers() throws Exception {
        trials("scale from 3 to 4 shards", () -> {
            HashRing before = HashRing.of(shards.live(), 100);
            String added = shards.launch();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> seenReady(added));
            long readyAt = System.currentTimeMillis();

            HashRing after = awaitShares();

            Set<String> moved = keys().stream().filter(key -> !after.ownerOf(key).equals(before.ownerOf(key)))
                    .collect(Collectors.toSet());
            assertThat(moved).as("the keys the ring moves").isNotEmpty()
                    .allSatisfy(key -> assertThat(after.ownerOf(key)).contains(added));
            ReconcileLog log = shards.log();
            assertThat(log.keysOf(added)).as("what the new shard reconciled").isEqualTo(moved);
            Map<String, Long> arrived = log.firstStarts(Set.of(added), 0);
            List<Long> reassigned = moved.stream().map(key -> arrived.get(key) - readyAt).sorted().toList();
            System.out.printf("ShardingChaosIT: a fourth shard took %d of %d objects (%.3f)%n", moved.size(), OBJECTS,
                    moved.size() / (double) OBJECTS);
            // back to three for the next trial: a shard that was there before leaves
            String leader = shards.leader().orElseThrow();
            Process leaving = shards.terminate(shards.live().stream()
                    .filter(id -> !id.equals(added) && !id.equals(leader)).findFirst().orElseThrow());
            assertThat(leaving.waitFor(30, TimeUnit.SECONDS)).isTrue();
            awaitShares();
            return Figures.reassigned(reassigned).movedFraction(moved.size() / (double) OBJECTS);
        });
    }

    @Test
    @Order(5)
    @Tag("chaos")
    void aKilledLeaderIsReplacedAndTheNewAssignerFinishesTheRebalance() throws Exception {
        trials("kill -9 of the leader during a rebalance (3 to 4)", () -> {
            String leader = shards.leader().orElseThrow();
            String added = shards.launch();
            // the rebalance has begun: the assigner asked for drains or assigned to the new shard
            await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> primaries().values().stream()
                    .anyMatch(o -> labels(o).containsKey(LABELS.drain()) || added.equals(labels(o).get(LABELS.token()))));
            Map<String, ConfigMap> rebalancing = primaries();
            Set<String> held = rebalancing.entrySet().stream()
                    .filter(e -> leader.equals(labels(e.getValue()).get(LABELS.token()))).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            long killedAt = System.currentTimeMillis();
            shards.kill(leader);
            // Drains it acknowledged before it died moved objects without a take; what carries its
            // token now, once it is gone, may move only after the take.
            Set<String> stillHeld = primaries().entrySet().stream()
                    .filter(e -> leader.equals(labels(e.getValue()).get(LABELS.token()))).map(Map.Entry::getKey)
                    .collect(Collectors.toSet());
            System.out.printf("ShardingChaosIT: killed the leader %s with %d objects draining, %d on the new shard, "
                    + "%d without a token%n", leader,
                    rebalancing.values().stream().filter(o -> labels(o).containsKey(LABELS.drain())).count(),
                    rebalancing.values().stream().filter(o -> added.equals(labels(o).get(LABELS.token()))).count(),
                    rebalancing.values().stream().filter(o -> !labels(o).containsKey(LABELS.token())).count());

            List<Long> reassigned = awaitReconciledElsewhere(held, leader, killedAt);

            // a new leader after the lease, which judges the old one dead after the lease again, and takes its Lease
            movedOnlyAfter(leader, stillHeld, killedAt, awaitTaken(leader), "taken");
            awaitShares();
            return Figures.reassigned(reassigned);
        });
    }

    @Test
    @Order(6)
    @Tag("chaos")
    void aShardPausedForLessThanTheLeaseMinusTheRenewDeadlineKeepsItsObjectsAndReconcilesOn() throws Exception {
        AtomicInteger trial = new AtomicInteger();
        trials("SIGSTOP of a shard for 300 ms (< L - R), then SIGCONT (the leader every other trial)", () -> {
            String victim = trial.getAndIncrement() % 2 == 0 ? shards.follower() : shards.leader().orElseThrow();
            boolean leads = shards.leader().orElseThrow().equals(victim);
            Set<String> held = shareOf(victim);
            Lease before = shards.memberLease(victim).orElseThrow();
            int termsEnded = shards.memberTermEnds(victim).size();
            long pausingAt = System.currentTimeMillis();
            shards.pause(victim);
            Thread.sleep(SHORT_PAUSE.toMillis()); // the fault's length, not a wait for a condition
            shards.resume(victim);
            long resumedAt = System.currentTimeMillis();
            assertThat(resumedAt - pausingAt).as("the pause, signals included: shorter than the lease minus the renew "
                    + "deadline, or this trial tests something else").isLessThan(LEASE.minus(RENEW).toMillis());

            touch(held, "after-pause-" + trial.get());
            Figures figures = keptItsShare(victim, held, before, termsEnded, pausingAt, resumedAt);
            if (leads) {
                assertThat(shards.leader()).as("the leader after its pause").contains(victim);
            }
            return figures;
        });
    }

    @Test
    @Order(7)
    @Tag("chaos")
    void aShardWhoseRequestsHangPastTheLeaseStopsAtItsRenewDeadlineIsTakenAndNeverReconcilesAgain() throws Exception {
        shards.routeThroughFaultProxies();
        AtomicInteger trial = new AtomicInteger();
        trials("every request of a shard hangs past the lease (fault proxy), then is let through", () -> {
            String victim = shards.follower();
            Injection[] hang = new Injection[1];
            return cutOff(victim, "hang-" + trial.getAndIncrement(),
                    () -> hang[0] = shards.proxy(victim).inject(RequestMatcher.all(), Fault.hang()),
                    () -> {
                        assertThat(hang[0].matched()).as("requests of %s held by its proxy", victim).isPositive();
                        hang[0].remove(); // what it held is forwarded now, late
                    });
        });
    }

    @Test
    @Order(8)
    @Tag("chaos")
    void aTooManyRequestsStormShorterThanTheLeaseMovesNothingUnlessTheLeaseWasTaken() throws Exception {
        shards.routeThroughFaultProxies();
        AtomicInteger trial = new AtomicInteger();
        trials("429 storm (Retry-After: 1) on every request of a shard for 1 s (L / 2)", () -> {
            String victim = shards.follower();
            Set<String> held = shareOf(victim);
            Lease before = shards.memberLease(victim).orElseThrow();
            int termsEnded = shards.memberTermEnds(victim).size();
            long stormAt = System.currentTimeMillis();
            Injection storm = shards.proxy(victim).inject(RequestMatcher.all(), Fault.tooManyRequests(Duration.ofSeconds(1)));
            Thread.sleep(STORM.toMillis()); // the fault's length, not a wait for a condition
            storm.remove();
            long calmAt = System.currentTimeMillis();
            assertThat(storm.matched()).as("requests of %s refused with 429", victim).isPositive();

            // The design's either-or (docs/design/sharding.md, "Decisions": the take is a
            // compare-and-swap on the Lease version the assigner observed): its renewal lands first
            // and nothing moves, or the assigner's take does and the shard never reconciles again.
            // Told apart by the Lease.
            touch(held, "after-storm-" + trial.getAndIncrement());
            Lease after = awaitLeaseSettled(victim, calmAt);
            if (after.getSpec().getHolderIdentity().equals(victim)) {
                return keptItsShare(victim, held, before, termsEnded, stormAt, calmAt);
            }
            List<Long> reassigned = awaitReconciledElsewhere(held, victim, stormAt);
            movedOnlyAfter(victim, held, stormAt, acquiredAt(after), "taken");
            Process taken = shards.forget(victim);
            assertThat(taken.waitFor(30, TimeUnit.SECONDS)).as("%s exited after its Lease was taken", victim).isTrue();
            assertThat(taken.exitValue()).as("%s's exit status (tainted)", victim).isEqualTo(ShardProcess.TAINTED);
            assertThat(shards.log().lastMoment(victim).orElseThrow()).isLessThan(calmAt + RENEW.toMillis());
            awaitShares();
            return Figures.reassigned(reassigned).outcome("taken");
        });
    }

    @Test
    @Order(9)
    @Tag("chaos")
    void aLeaderCutOffFromTheApiServerPastTheLeaseIsReplacedTakenAndNeverReconcilesAgain() throws Exception {
        shards.routeThroughFaultProxies();
        AtomicInteger trial = new AtomicInteger();
        trials("the network to the leader stops answering past the lease (fault proxy, half-open), then comes back",
                () -> {
                    String leader = shards.leader().orElseThrow();
                    FaultProxy proxy = shards.proxy(leader);
                    // a new leader after the lease, which judges the old one's member Lease after the lease again
                    Figures figures = cutOff(leader, "half-open-" + trial.getAndIncrement(), () -> proxy.halfOpen(true),
                            () -> proxy.halfOpen(false));
                    assertThat(shards.leader()).as("the leader after the fault").isPresent().get().isNotEqualTo(leader);
                    return figures;
                });
    }

    /**
     * The checks of a shard that came through a fault shorter than its lease with its Lease: it
     * still runs and holds its Lease with the transitions it had {@code before}; it reconciles every
     * object of its share ({@code held}, changed by the caller after the fault) since
     * {@code faultEnded}; no other process reconciled any of them since {@code faultBegan}; the
     * shares are in place. The outcome says whether its member term survived the fault, from the
     * {@code termsEnded} before it.
     */
    private Figures keptItsShare(String victim, Set<String> held, Lease before, int termsEnded, long faultBegan,
            long faultEnded) throws IOException {
        awaitReconciledBy(held, victim, faultEnded);
        expectUntouched(victim, before);
        assertThat(shards.log().firstStarts(otherThan(victim), faultBegan).keySet())
                .as("objects of %s reconciled by another process since the fault began", victim)
                .doesNotContainAnyElementsOf(held);
        awaitShares();
        return Figures.none().outcome(shards.memberTermEnds(victim).size() == termsEnded ? "term kept"
                : "term lost and renewed");
    }

    /**
     * The shared part of the cut-off scenarios: {@code fault} cuts shard {@code victim} off from the
     * API server; its member term must end within the renew deadline, and reconciles with it, while
     * the objects of its share are changed twice (before and after that); its Lease must be taken,
     * and its objects reconciled by others, none before the take. Then {@code lift} ends the fault:
     * the shard must find its Lease taken and exit with status 3, having recorded no moment after
     * its term's end.
     */
    private Figures cutOff(String victim, String round, Runnable fault, Runnable lift)
            throws InterruptedException, IOException {
        Set<String> held = shareOf(victim);
        long cutAt = System.currentTimeMillis();
        fault.run();
        // Work for it: what reaches it, it would reconcile while its term lasts, and must not after.
        CompletableFuture<Void> touching = CompletableFuture.runAsync(() -> touch(held, round));
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> shards.status(victim)
                .map(status -> !status.phase().equals(Membership.Phase.MEMBER.name())).orElse(false));
        LocalTime cut = LocalTime.ofInstant(Instant.ofEpochMilli(cutAt), ZoneId.systemDefault());
        // none when a term lost to the machine's load had not been renewed yet when the fault began
        Optional<Long> termEndedAfter = shards.memberTermEnds(victim).stream()
                .map(end -> Duration.between(cut, end).toMillis()).filter(ms -> ms >= 0).findFirst();
        touching.join();
        touch(held, round + "-after-the-term");

        List<Long> reassigned = awaitReconciledElsewhere(held, victim, cutAt);

        movedOnlyAfter(victim, held, cutAt, awaitTaken(victim), "taken");
        lift.run();
        Process lifted = shards.forget(victim);

        assertThat(lifted.waitFor(30, TimeUnit.SECONDS)).as("%s exited once the fault lifted", victim).isTrue();
        assertThat(lifted.exitValue()).as("%s's exit status (tainted)", victim).isEqualTo(ShardProcess.TAINTED);
        // its last successful renewal was sent before the fault, and its term ended within the renew deadline of it
        assertThat(shards.log().lastMoment(victim).orElseThrow()).as("the last moment %s recorded", victim)
                .isLessThan(cutAt + RENEW.toMillis());
        awaitShares();
        Figures figures = Figures.reassigned(reassigned);
        return termEndedAfter.map(figures::termEndedAfter).orElse(figures);
    }

    // ---- trials

    /**
     * What a trial measured: ms until each object was reconciled again, the moved fraction, which
     * of the outcomes the design allows happened, and ms from the fault to the end of the hurt
     * shard's term (as its log says), if any.
     */
    private record Figures(List<Long> reassigned, OptionalDouble movedFraction, Optional<String> outcome,
            OptionalLong termEndedAfter) {

        static Figures none() {
            return reassigned(List.of());
        }

        static Figures reassigned(List<Long> reassigned) {
            return new Figures(reassigned, OptionalDouble.empty(), Optional.empty(), OptionalLong.empty());
        }

        Figures movedFraction(double fraction) {
            return new Figures(reassigned, OptionalDouble.of(fraction), outcome, termEndedAfter);
        }

        Figures outcome(String what) {
            return new Figures(reassigned, movedFraction, Optional.of(what), termEndedAfter);
        }

        Figures termEndedAfter(long ms) {
            return new Figures(reassigned, movedFraction, outcome, OptionalLong.of(ms));
        }
    }

    /** One trial on a ring of three whose shares are in place; it leaves three shards behind, or fewer. */
    @FunctionalInterface
    private interface Trial {
        Figures run() throws Exception;
    }

    /**
     * Starts three shards and the objects, then runs the trials of one scenario, each on
     * three live shards (launching new ones first when an earlier trial, or the machine's load, left
     * fewer); after each, no two processes may have reconciled one object at once. Adds the
     * scenario's row to the table, with the shards lost to load.
     */
    private void trials(String scenario, Trial trial) throws Exception {
        long started = System.nanoTime();
        List<Long> reassigned = new ArrayList<>();
        List<Double> fractions = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        List<Long> termEnds = new ArrayList<>();
        long maxOverlap = 0;
        int passed = 0;
        try {
            for (int i = 0; i < TRIALS; i++) {
                settingUp = true;
                threeShardsHoldTheirShares();
                settingUp = false;
                Figures figures = trial.run();
                List<Overlaps.Overlap> overlaps = shards.log().overlaps();
                maxOverlap = overlaps.stream().mapToLong(Overlaps.Overlap::length).max().orElse(maxOverlap);
                assertThat(overlaps).as("trial %d: reconciles of one object by two processes at once", i).isEmpty();
                reassigned.addAll(figures.reassigned());
                figures.movedFraction().ifPresent(fractions::add);
                figures.outcome().ifPresent(outcome -> outcomes.merge(outcome, 1, Integer::sum));
                figures.termEndedAfter().ifPresent(termEnds::add);
                passed++;
            }
        } finally {
            List<Long> sorted = reassigned.stream().sorted().toList();
            String times = medianAndMax(sorted);
            DoubleSummaryStatistics f = fractions.stream().mapToDouble(Double::doubleValue).summaryStatistics();
            String moved = fractions.isEmpty() ? "n/a" : fractions.size() == 1 ? String.format("%.3f", f.getAverage())
                    : String.format("%.3f (%.3f to %.3f)", f.getAverage(), f.getMin(), f.getMax());
            List<String> notes = new ArrayList<>();
            outcomes.forEach((outcome, count) -> notes.add(outcome + ": " + count));
            if (!termEnds.isEmpty()) {
                notes.add("term ended after, median / max: " + medianAndMax(termEnds.stream().sorted().toList()) + " ms");
            }
            notes.add("shards lost to load during setup: " + lostDuringSetup.size());
            if (!lostDuringTrials.isEmpty()) {
                notes.add("shards lost to load during the trials: " + lostDuringTrials.size());
            }
            String row = "| " + scenario + " | " + OBJECTS + " | " + TRIALS + " | " + passed + " | " + maxOverlap + " | "
                    + times + " | " + moved + " | " + (notes.isEmpty() ? "" : String.join("; ", notes)) + " |";
            table.add(row);
            System.out.printf("ShardingChaosIT: %s (%.1f s)%n", row, (System.nanoTime() - started) / 1e9);
        }
    }

    private static String medianAndMax(List<Long> sorted) {
        return sorted.isEmpty() ? "n/a"
                : String.format("%,d / %,d", sorted.get((sorted.size() - 1) / 2), sorted.get(sorted.size() - 1));
    }

    /**
     * Launches shards until three live, creates the objects on the first call, waits for the shares.
     * A shard the machine's load tainted meanwhile (it missed its renewals, and the assigner took
     * its Lease) is {@linkplain #reapLostToLoad reaped}, and replaced, until three hold their shares.
     */
    private void threeShardsHoldTheirShares() throws Exception {
        long launching = System.nanoTime();
        long ready;
        do {
            reapLostToLoad();
            while (shards.live().size() < 3) {
                shards.launch();
            }
            await().atMost(WAIT).failFast(this::reapLostToLoad)
                    .until(() -> shards.live().stream().allMatch(this::seenReady));
            ready = System.nanoTime();
            if (primaries().isEmpty()) {
                createObjects();
            }
            awaitShares();
        } while (shards.live().size() < 3);
        Map<String, Integer> shares = shards.live().stream().collect(Collectors.toMap(id -> id, id -> shareOf(id).size()));
        System.out.printf("ShardingChaosIT: three shards ready after %,d ms, their shares %s in place %,d ms later "
                + "(balance max/min %.2f)%n", (ready - launching) / 1_000_000, shares,
                (System.nanoTime() - ready) / 1_000_000, Collections.max(shares.values())
                        / (double) Collections.min(shares.values()));
    }

    /** The assigner saw member {@code id} ready (it labels the member's Lease so on first sight). */
    private boolean seenReady(String id) {
        return shards.memberLease(id).map(lease -> LeaseTake.READY.equals(labels(lease).get(ShardLabels.STATE_LABEL)))
                .orElse(false);
    }

    private void createObjects() throws Exception {
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(ns);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ConfigMap>> created = new ArrayList<>();
            for (int i = 0; i < OBJECTS; i++) {
                ConfigMap object = new ConfigMapBuilder().withNewMetadata().withName(String.format("object-%04d", i))
                        .addToLabels("chaos", "primary").endMetadata().addToData("index", Integer.toString(i)).build();
                created.add(pool.submit(() -> configMaps.create(object)));
            }
            for (Future<ConfigMap> future : created) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- checks

    /**
     * Waits until every object carries the token the ring of the live shards gives it and no drain,
     * was reconciled last by that shard, and has its child with the same token, and each live
     * shard's primary cache holds exactly its share; returns that ring. Before each look it
     * {@linkplain #reapLostToLoad reaps} the shards that exited by themselves, and builds the ring
     * of those left: the assigner's ring has none of them either.
     */
    private HashRing awaitShares() {
        HashRing[] looked = new HashRing[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(500)).failFast(this::reapLostToLoad).untilAsserted(() -> {
            HashRing ring = HashRing.of(shards.live(), 100);
            looked[0] = ring;
            Map<String, ConfigMap> primaries = primaries();
            Map<String, ConfigMap> children = byKey(ShardProcess.CHILD_SELECTOR);
            assertThat(primaries).hasSize(OBJECTS);
            Map<String, ReconcileLog.Reconcile> last = new HashMap<>();
            shards.log().reconciles().forEach(r -> last.merge(r.key(), r, (a, b) -> b.start() > a.start() ? b : a));
            for (Map.Entry<String, ConfigMap> object : primaries.entrySet()) {
                String key = object.getKey();
                String owner = ring.ownerOf(key).orElseThrow();
                assertThat(labels(object.getValue())).as("the labels of %s", key).containsEntry(LABELS.token(), owner)
                        .doesNotContainKey(LABELS.drain());
                assertThat(last.get(key)).as("the last reconcile of %s", key).isNotNull()
                        .extracting(ReconcileLog.Reconcile::process).isEqualTo(owner);
                assertThat(children.get(key + "-child")).as("the child of %s", key).isNotNull()
                        .extracting(child -> labels(child).get(LABELS.token())).isEqualTo(owner);
            }
            for (String id : shards.live()) {
                List<String> share = shareOf(id).stream().sorted().toList();
                assertThat(shards.status(id)).as("%s's status", id).hasValueSatisfying(status -> {
                    assertThat(status.primaries()).as("%s's primary cache", id).isEqualTo(share);
                    assertThat(status.children()).as("%s's children", id).isEqualTo(share.size());
                });
            }
            // one that exited while this look ran is reaped before the next
            assertThat(shards.live()).as("the live shards, each still running").allMatch(shards::isAlive);
        });
        return looked[0];
    }

    /**
     * Forgets the shards that exited by themselves ({@link ShardProcesses#reap}), which only the
     * machine's load may cause: a shard that missed its renewals (its process starved past the
     * lease) loses its member Lease to the assigner and halts. So each must have exited tainted,
     * with its Lease held by the assigner: it was taken, the shard did not crash. Counts them for
     * the table, by whether a trial was being set up.
     */
    private void reapLostToLoad() {
        shards.reap().forEach((id, status) -> {
            assertThat(status).as("the exit status of %s, which exited by itself (tainted)", id)
                    .isEqualTo(ShardProcess.TAINTED);
            assertThat(shards.memberLease(id)).as("%s's member Lease", id).hasValueSatisfying(lease ->
                    assertThat(lease.getSpec().getHolderIdentity()).as("taken by the assigner")
                            .startsWith(LeaseTake.ASSIGNER_PREFIX));
            (settingUp ? lostDuringSetup : lostDuringTrials).add(id);
            System.out.printf("ShardingChaosIT: %s exited tainted %s: the assigner took its member Lease (the "
                    + "machine's load made it miss its renewals)%n", id, settingUp ? "during setup" : "during a trial");
        });
    }

    /**
     * Waits until each of {@code keys} was reconciled, at or after {@code since}, by a live process
     * other than {@code gone}; returns the times that took, in ms from {@code since}, sorted.
     */
    private List<Long> awaitReconciledElsewhere(Set<String> keys, String gone, long since) {
        Map<String, Long> after = new HashMap<>();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
            Set<String> others = shards.live().stream().filter(id -> !id.equals(gone)).collect(Collectors.toSet());
            shards.log().firstStarts(others, since).forEach((key, start) -> {
                if (keys.contains(key)) {
                    after.putIfAbsent(key, start - since);
                }
            });
            return after.size() == keys.size();
        });
        List<Long> sorted = after.values().stream().sorted().toList();
        System.out.printf("ShardingChaosIT: %d objects of %s reconciled elsewhere after %,d ms (median), %,d ms (max)%n",
                keys.size(), gone, sorted.get((sorted.size() - 1) / 2), sorted.get(sorted.size() - 1));
        return sorted;
    }

    /**
     * The order that makes a move safe ({@code docs/design/sharding.md}, "Guarantees": an object's
     * token leaves a shard that is not live only after its Lease was released or taken): no
     * process but {@code victim} reconciled any of {@code held}, objects that carried its token
     * when the fault began at {@code since}, before {@code freedAt}, the moment its member Lease
     * was taken or released ({@code how}). Both are wall-clock ms of this machine, which every
     * process reads; the reconcile's start is read after the take or release was sent, so the order
     * holds however slowly anything ran.
     */
    private void movedOnlyAfter(String victim, Set<String> held, long since, long freedAt, String how) {
        Map<String, Long> elsewhere = shards.log().firstStarts(otherThan(victim), since);
        Map<String, Long> early = new TreeMap<>();
        elsewhere.forEach((key, start) -> {
            if (held.contains(key) && start < freedAt) {
                early.put(key, start);
            }
        });
        assertThat(early).as("objects of %s reconciled by another process (first start) before its member Lease was %s "
                + "at %d", victim, how, freedAt).isEmpty();
        OptionalLong first = elsewhere.entrySet().stream().filter(e -> held.contains(e.getKey()))
                .mapToLong(Map.Entry::getValue).min();
        System.out.printf("ShardingChaosIT: %s's member Lease %s %,d ms after the fault; the first of its objects "
                + "reconciled elsewhere %s%n", victim, how, freedAt - since,
                first.isPresent() ? String.format("%,d ms after that", first.getAsLong() - freedAt) : "(none)");
    }

    /**
     * Waits until the assigner took {@code victim}'s member Lease; returns when it did: the taken
     * record's acquire time, which the assigner reads before it sends the take.
     */
    private long awaitTaken(String victim) {
        Lease[] taken = new Lease[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(shards.memberLease(victim)).as("%s's member Lease", victim).hasValueSatisfying(lease -> {
                    assertThat(lease.getSpec().getHolderIdentity()).as("taken by the assigner")
                            .startsWith(LeaseTake.ASSIGNER_PREFIX);
                    taken[0] = lease;
                }));
        return acquiredAt(taken[0]);
    }

    /**
     * When {@code lease}'s holder last changed, in wall-clock ms: its acquire time, written by a
     * take or a release (to the µs; cut to the ms here, as the reconciles' moments are).
     */
    private static long acquiredAt(Lease lease) {
        return lease.getSpec().getAcquireTime().toInstant().toEpochMilli();
    }

    /** Waits until each of {@code keys} was reconciled by process {@code id} at or after {@code since}. */
    private void awaitReconciledBy(Set<String> keys, String id, long since) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
                assertThat(shards.log().firstStarts(Set.of(id), since).keySet()).as("objects %s reconciled since %d", id,
                        since).containsAll(keys));
    }

    /** Every process launched so far but {@code id}. */
    private Set<String> otherThan(String id) {
        return shards.launched().stream().filter(other -> !other.equals(id)).collect(Collectors.toSet());
    }

    /** Process {@code id} runs, and its member Lease is held by it with the transitions it had {@code before}. */
    private void expectUntouched(String id, Lease before) {
        assertThat(shards.live()).as("the live processes").contains(id);
        assertThat(shards.isAlive(id)).as("%s still runs", id).isTrue();
        assertThat(shards.memberLease(id)).as("%s's member Lease", id).hasValueSatisfying(lease -> {
            assertThat(lease.getSpec().getHolderIdentity()).as("its holder").isEqualTo(id);
            assertThat(lease.getSpec().getLeaseTransitions()).as("its transitions")
                    .isEqualTo(before.getSpec().getLeaseTransitions());
        });
    }

    /**
     * Waits until the CAS on {@code id}'s member Lease has decided: renewed by the member after
     * {@code since} (wall clock, as the member writes it), or taken by the assigner; returns it.
     */
    private Lease awaitLeaseSettled(String id, long since) {
        Lease[] settled = new Lease[1];
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            Optional<Lease> lease = shards.memberLease(id);
            if (lease.isEmpty()) {
                return false;
            }
            String holder = lease.get().getSpec().getHolderIdentity();
            ZonedDateTime renewed = lease.get().getSpec().getRenewTime();
            settled[0] = lease.get();
            return holder.startsWith(LeaseTake.ASSIGNER_PREFIX)
                    || holder.equals(id) && renewed != null && renewed.toInstant().toEpochMilli() > since;
        });
        return settled[0];
    }

    /** Changes a data field of each object in {@code keys} to {@code value} (as the admin), so its owner reconciles it. */
    private void touch(Collection<String> keys, String value) {
        ResourceClient<ConfigMap> configMaps = admin.coreV1().configMaps().inNamespace(ns);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<ConfigMap>> touched = new ArrayList<>();
            for (String key : keys) {
                String name = key.substring(key.indexOf('/') + 1);
                touched.add(pool.submit(() -> configMaps.patch(name, PatchType.MERGE,
                        "{\"data\":{\"touched\":\"" + value + "\"}}")));
            }
            for (Future<ConfigMap> future : touched) {
                future.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** The keys the ring of the live shards gives {@code id}. */
    private Set<String> shareOf(String id) {
        HashRing ring = HashRing.of(shards.live(), 100);
        return IntStream.range(0, OBJECTS).mapToObj(i -> ns + "/" + String.format("object-%04d", i))
                .filter(key -> ring.ownerOf(key).orElseThrow().equals(id)).collect(Collectors.toSet());
    }

    private Set<String> keys() {
        return primaries().keySet();
    }

    private Map<String, ConfigMap> primaries() {
        return byKey(ShardProcess.PRIMARY_SELECTOR);
    }

    private Map<String, ConfigMap> byKey(String selector) {
        return admin.coreV1().configMaps().inNamespace(ns).list(ListOptions.builder().labelSelector(selector).build())
                .items().stream().collect(Collectors.toMap(object -> ns + "/" + object.getMetadata().getName(),
                        object -> object));
    }

    private static Map<String, String> labels(HasMetadata object) {
        Map<String, String> labels = object.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }
}

package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.Subject;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Informers under faults, as repeated trials against a real API server of the run's own (see
 * {@link InformerChaos}): after every fault, our informer's cache must equal a fresh list of the
 * server (names and resourceVersions) and every deletion must have reached its handler. The
 * peers run beside ours when asked, and are measured, not judged.
 *
 * <p>Trials per scenario: {@code -Dchaos.trials} (default 1); subjects: {@code -Dchaos.subjects}
 * (default {@code ours}). The {@code chaos} profile runs 20 trials of ours, fabric8 and the
 * official client. The tables are written to {@code target/chaos/informers.md} and printed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InformerChaosIT {

    private static InformerChaos chaos;

    @BeforeAll
    static void startTheServerTheSubjectsAndTheChurn() throws Exception {
        chaos = InformerChaos.start(ChaosOptions.fromSystemProperties());
    }

    @AfterAll
    static void writeTheReport() throws Exception {
        if (chaos == null) {
            return;
        }
        try {
            Path file = chaos.writeReport();
            System.out.println(chaos.report());
            System.out.println("written to " + file.toAbsolutePath());
        } finally {
            chaos.close();
        }
    }

    @Test
    @Order(1)
    void afterAnApiServerRestartOurCacheEqualsTheServerAndEveryDeletionArrivedWithoutARelist() throws Exception {
        List<TrialResult> results = everyTrialOfOursPasses(Scenario.restart());

        // With the watch cache off, etcd still holds the version the watch reached: a prompt
        // reconnect resumes from it, and a relist would mean the informer came back too late.
        assertThat(results.stream().filter(r -> r.subject() == Subject.OURS))
                .allSatisfy(r -> assertThat(r.lists()).as(r.summary()).isZero());
    }

    @Test
    @Order(2)
    void afterAWatchFromACompactedVersionOurInformerRelistsAndDeliversTheDeletionsAsTombstones() throws Exception {
        List<TrialResult> results = everyTrialOfOursPasses(Scenario.compaction());

        // Keys deleted while the subjects were cut off can only reach them through the relist.
        assertThat(results.stream().filter(r -> r.subject() == Subject.OURS))
                .allSatisfy(r -> assertThat(r.lists()).as(r.summary()).isPositive());
    }

    @Test
    @Order(3)
    void afterAHalfOpenNetworkResumesOurCacheEqualsTheServer() throws Exception {
        everyTrialOfOursPasses(Scenario.hungWatch());
    }

    @Test
    @Order(4)
    void afterWatchesCutInTheMiddleOfAnEventOurCacheEqualsTheServer() throws Exception {
        everyTrialOfOursPasses(Scenario.cutStreams());
    }

    @Test
    @Order(5)
    void afterA429StormOnTheRelistOurCacheEqualsTheServer() throws Exception {
        everyTrialOfOursPasses(Scenario.tooManyRequestsOnLists());
    }

    @Test
    @Order(6)
    void afterA503StormOnTheRelistOurCacheEqualsTheServer() throws Exception {
        everyTrialOfOursPasses(Scenario.unavailableOnLists());
    }

    @Test
    @Order(7)
    void afterMalformedWatchEventsOurCacheEqualsTheServer() throws Exception {
        everyTrialOfOursPasses(Scenario.malformedWatches());
    }

    @Test
    @Order(8)
    void afterItsConnectionIsLostWithoutAWordOurInformerNoticesTheSilenceAndItsCacheEqualsTheServer() throws Exception {
        List<TrialResult> results = everyTrialOfOursPasses(Scenario.lostConnections());

        assertThat(results.stream().filter(r -> r.subject() == Subject.OURS))
                .allSatisfy(r -> assertThat(r.recoveryMillis()).as(r.summary()).isPresent());
    }

    private static List<TrialResult> everyTrialOfOursPasses(Scenario scenario) throws Exception {
        List<TrialResult> results = chaos.run(scenario);

        assertThat(results.stream().filter(r -> r.subject() == Subject.OURS))
                .allSatisfy(r -> assertThat(r.passed()).as(r.summary()).isTrue());
        return results;
    }
}

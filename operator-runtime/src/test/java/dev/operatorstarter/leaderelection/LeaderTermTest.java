package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.testing.FakeTimeSource;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** When a term may act, and what a write to the lock records, judged without threads. */
class LeaderTermTest {

    private final FakeTimeSource time = new FakeTimeSource();
    private final LeaderTerm term = new LeaderTerm(time.nanoTime(), Duration.ofSeconds(10), time);

    @Test
    void aTermIsValidOnlyWhileItsLastRenewalIsYoungerThanTheRenewDeadline() {
        time.advance(Duration.ofMillis(9_999));
        assertThat(term.isValid()).isTrue();
        time.advance(Duration.ofMillis(1));
        assertThat(term.isValid()).as("no renewal for the whole renew deadline").isFalse();
        term.renewed(time.nanoTime());
        assertThat(term.isValid()).isTrue();
    }

    @Test
    void anEndedTermIsNeverValidAgainAndItsWaitersReturn() throws InterruptedException {
        term.end();
        term.renewed(time.nanoTime());
        assertThat(term.isValid()).isFalse();
        assertThat(term.awaitEnd(Duration.ZERO)).isTrue();
    }

    @Test
    void aRenewalKeepsTheAcquireTimeAndATakeoverCountsATransition() {
        Instant created = Instant.parse("2026-01-01T00:00:00Z");
        Instant later = created.plusSeconds(30);
        LeaderElectionRecord first = LeaderElectionRecord.first("a", Duration.ofSeconds(15), created);
        assertThat(first).isEqualTo(new LeaderElectionRecord("a", Duration.ofSeconds(15), created, created, 0));

        assertThat(first.writtenBy("a", Duration.ofSeconds(15), later))
                .isEqualTo(new LeaderElectionRecord("a", Duration.ofSeconds(15), created, later, 0));
        assertThat(first.writtenBy("b", Duration.ofSeconds(20), later))
                .isEqualTo(new LeaderElectionRecord("b", Duration.ofSeconds(20), later, later, 1));
        LeaderElectionRecord released = new LeaderElectionRecord("", Duration.ofSeconds(1), created, created, 3);
        assertThat(released.writtenBy("a", Duration.ofSeconds(15), later).leaderTransitions()).isEqualTo(4);
    }
}

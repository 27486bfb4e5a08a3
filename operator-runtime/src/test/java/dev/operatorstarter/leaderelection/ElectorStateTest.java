package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.leaderelection.ElectorState.Event;
import dev.operatorstarter.leaderelection.ElectorState.Following;
import dev.operatorstarter.leaderelection.ElectorState.Leading;
import dev.operatorstarter.leaderelection.ElectorState.Released;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The elector's deadline rules, on plain numbers: no threads, no clock. */
class ElectorStateTest {

    private static final String ME = "me";
    private static final Duration LEASE = Duration.ofSeconds(15);
    private static final Duration RENEW_DEADLINE = Duration.ofSeconds(10);

    private static long s(double seconds) {
        return (long) (seconds * 1_000_000_000L);
    }

    private static ResourceLock.Observed record(String holder, String version) {
        return new ResourceLock.Observed(new LeaderElectionRecord(holder, LEASE, Instant.EPOCH, Instant.EPOCH, 0), version);
    }

    private static ElectorState next(ElectorState state, Event event) {
        return ElectorState.next(state, event, ME, RENEW_DEADLINE);
    }

    @Test
    void anotherHoldersLeaseCountsFromWhenTheReadReturnedNotFromWhenItWasSent() {
        // The read was sent at 0 and took 6 s: the record may have changed at 5.9 s.
        ElectorState state = next(new Following(null, 0), new Event.Read(Optional.of(record("other", "1")), s(6)));

        assertThat(state).isEqualTo(new Following(record("other", "1"), s(6)));
        assertThat(ElectorState.othersLeaseRunsOutAt(state, ME, s(20.9))).contains(s(21));
        assertThat(ElectorState.othersLeaseRunsOutAt(state, ME, s(21))).isEmpty();
    }

    @Test
    void anUnchangedRecordKeepsCountingFromWhenItWasFirstSeen() {
        ElectorState first = next(new Following(null, 0), new Event.Read(Optional.of(record("other", "1")), s(1)));
        ElectorState again = next(first, new Event.Read(Optional.of(record("other", "1")), s(12)));
        ElectorState changed = next(again, new Event.Read(Optional.of(record("other", "2")), s(14)));

        assertThat(again).isEqualTo(first);
        assertThat(changed).isEqualTo(new Following(record("other", "2"), s(14)));
    }

    @Test
    void aReleasedLeaseOrOnesOwnRecordCanBeWrittenAtOnce() {
        assertThat(ElectorState.othersLeaseRunsOutAt(new Following(record("", "3"), s(1)), ME, s(1))).isEmpty();
        assertThat(ElectorState.othersLeaseRunsOutAt(new Following(record(ME, "3"), s(1)), ME, s(1))).isEmpty();
        assertThat(ElectorState.othersLeaseRunsOutAt(new Following(null, 0), ME, 0)).isEmpty();
    }

    @Test
    void aTermCountsFromWhenTheWinningWriteWasSent() {
        ElectorState state = next(new Following(record("other", "1"), 0), new Event.Wrote(record(ME, "1"), s(16), s(18)));

        assertThat(state).isEqualTo(new Leading(record(ME, "1"), s(16)));
    }

    @Test
    void aWriteSlowerThanTheRenewDeadlineStartsNoTerm() {
        ElectorState state = next(new Following(null, 0), new Event.Wrote(record(ME, ""), s(1), s(11)));

        assertThat(state).isEqualTo(new Following(record(ME, ""), s(11)));
    }

    @Test
    void theTermEndsExactlyAtTheRenewDeadlineAfterTheLastRenewalWhateverIsInFlight() {
        Leading leading = new Leading(record(ME, "1"), s(100));

        assertThat(next(leading, new Event.Tick(s(110) - 1))).isEqualTo(leading);
        assertThat(next(leading, new Event.Tick(s(110)))).isEqualTo(new Following(record(ME, "1"), s(110)));
        assertThat(next(leading, new Event.Failed(s(109)))).isEqualTo(leading);
        assertThat(next(leading, new Event.Failed(s(111)))).isInstanceOf(Following.class);
    }

    @Test
    void aRenewalMovesTheDeadlineToWhenItWasSent() {
        ElectorState renewed = next(new Leading(record(ME, "1"), s(100)), new Event.Wrote(record(ME, "2"), s(108), s(109)));

        assertThat(renewed).isEqualTo(new Leading(record(ME, "2"), s(108)));
        assertThat(next(renewed, new Event.Tick(s(117.9)))).isEqualTo(renewed);
        assertThat(next(renewed, new Event.Tick(s(118)))).isInstanceOf(Following.class);
    }

    @Test
    void aRenewalThatComesBackAfterTheDeadlineDoesNotReviveTheTermButTheNextWriteStartsANewOne() {
        ElectorState late = next(new Leading(record(ME, "1"), s(100)), new Event.Wrote(record(ME, "2"), s(108), s(111)));

        assertThat(late).isEqualTo(new Following(record(ME, "2"), s(111)));
        assertThat(ElectorState.othersLeaseRunsOutAt(late, ME, s(111))).as("the record is ours").isEmpty();
        assertThat(next(late, new Event.Wrote(record(ME, "3"), s(112), s(112.1))))
                .isEqualTo(new Leading(record(ME, "3"), s(112)));
    }

    @Test
    void theLeaderStepsDownAtOnceWhenTheLockShowsAnotherHolderOrIsGone() {
        Leading leading = new Leading(record(ME, "1"), s(100));

        assertThat(next(leading, new Event.Read(Optional.of(record("other", "2")), s(101))))
                .isEqualTo(new Following(record("other", "2"), s(101)));
        assertThat(next(leading, new Event.Read(Optional.empty(), s(101)))).isEqualTo(new Following(null, s(101)));
        assertThat(next(leading, new Event.Read(Optional.of(record(ME, "1")), s(101)))).isEqualTo(leading);
    }

    @Test
    void closingReleasesFromAnyStateAndNothingLeavesReleased() {
        assertThat(next(new Leading(record(ME, "1"), 0), new Event.Closed())).isEqualTo(new Released());
        assertThat(next(new Following(null, 0), new Event.Closed())).isEqualTo(new Released());
        assertThat(next(new Released(), new Event.Wrote(record(ME, "1"), 0, 1))).isEqualTo(new Released());
        assertThat(next(new Released(), new Event.Read(Optional.empty(), 1))).isEqualTo(new Released());
    }
}

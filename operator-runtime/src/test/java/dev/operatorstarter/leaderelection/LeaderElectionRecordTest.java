package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaderElectionRecordTest {

    @Test
    void aRecordGoesIntoALeaseSpecAndComesBackEqual() {
        // client-go's TestLeaseSpecToLeaderElectionRecordRoundTrip
        LeaderElectionRecord record = new LeaderElectionRecord("replica-1", Duration.ofSeconds(15),
                Instant.parse("2026-01-01T00:00:00.123456Z"), Instant.parse("2026-01-01T00:00:10Z"), 4);
        LeaseSpec spec = record.toLeaseSpec();
        assertThat(spec.getHolderIdentity()).isEqualTo("replica-1");
        assertThat(spec.getLeaseDurationSeconds()).isEqualTo(15);
        assertThat(spec.getLeaseTransitions()).isEqualTo(4);
        assertThat(LeaderElectionRecord.of(spec)).isEqualTo(record);
        assertThat(LeaderElectionRecord.of(spec).toLeaseSpec()).isEqualTo(spec);
    }

    @Test
    void aLeaseWithoutASpecOrFieldsReadsAsAnEmptyReleasedRecord() {
        // client-go's "acquire from object without annotations": a Lease nobody has written a record into
        assertThat(LeaderElectionRecord.of(null)).isEqualTo(new LeaderElectionRecord("", Duration.ZERO, null, null, 0))
                .satisfies(record -> assertThat(record.isReleased()).isTrue());
        assertThat(LeaderElectionRecord.of(new LeaseSpec())).isEqualTo(LeaderElectionRecord.of(null));
    }

    @ParameterizedTest(name = "{0} ms is written as {1} s")
    @CsvSource({"200, 1", "1000, 1", "1001, 2", "1500, 2", "15000, 15", "0, 1"})
    void aLeaseDurationIsWrittenInWholeSecondsRoundedUpNeverShorterThanTheHoldersOwn(long millis, int seconds) {
        LeaderElectionRecord record = new LeaderElectionRecord("me", Duration.ofMillis(millis), null, null, 2);

        assertThat(record.toLeaseSpec().getLeaseDurationSeconds()).isEqualTo(seconds);
        assertThat(LeaderElectionRecord.asWritten(Duration.ofMillis(millis))).isEqualTo(Duration.ofSeconds(seconds));
        assertThat(LeaderElectionRecord.asWritten(Duration.ofSeconds(15).plusNanos(1))).isEqualTo(Duration.ofSeconds(16));
    }

    @Test
    void aWrittenRecordIsWhatTheLeaseGivesBack() {
        // durations rounded up to whole seconds, times cut to the microseconds a Lease's MicroTime keeps
        Instant now = Instant.parse("2026-01-01T00:00:00.123456789Z");
        LeaderElectionRecord first = LeaderElectionRecord.first("me", Duration.ofMillis(1500), now);
        LeaderElectionRecord renewed = first.writtenBy("me", Duration.ofMillis(1500), now.plusSeconds(1));
        LeaderElectionRecord taken = renewed.writtenBy("other", Duration.ofMillis(1500), now.plusSeconds(2));

        for (LeaderElectionRecord record : List.of(first, renewed, taken)) {
            assertThat(LeaderElectionRecord.of(record.toLeaseSpec())).isEqualTo(record);
            assertThat(record.leaseDuration()).isEqualTo(Duration.ofSeconds(2));
        }
        assertThat(first.renewTime()).isEqualTo(Instant.parse("2026-01-01T00:00:00.123456Z"));
    }

    @Test
    void everyWriteMovesTheRenewTimeForwardEvenWhenTheWallClockStandsStillOrStepsBack() {
        Instant now = Instant.parse("2026-01-01T00:00:10Z");
        LeaderElectionRecord held = LeaderElectionRecord.first("me", Duration.ofSeconds(15), now);

        LeaderElectionRecord sameInstant = held.writtenBy("me", Duration.ofSeconds(15), now);
        LeaderElectionRecord stepBack = sameInstant.writtenBy("me", Duration.ofSeconds(15), now.minusSeconds(5));
        LeaderElectionRecord taken = stepBack.writtenBy("other", Duration.ofSeconds(15), now.minusSeconds(5));
        LeaderElectionRecord later = taken.writtenBy("other", Duration.ofSeconds(15), now.plusSeconds(2));

        assertThat(sameInstant).isNotEqualTo(held);
        assertThat(sameInstant.renewTime()).isEqualTo(now.plus(1, ChronoUnit.MICROS));
        assertThat(stepBack.renewTime()).isEqualTo(now.plus(2, ChronoUnit.MICROS));
        assertThat(stepBack.acquireTime()).as("a renewal keeps the acquire time").isEqualTo(now);
        assertThat(taken.renewTime()).isEqualTo(now.plus(3, ChronoUnit.MICROS)).isEqualTo(taken.acquireTime());
        assertThat(later.renewTime()).as("a clock ahead is taken as it is").isEqualTo(now.plusSeconds(2));
    }
}

package dev.operatorstarter.leaderelection;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

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

    @Test
    void aLeaseDurationUnderASecondIsWrittenAsOneSecond() {
        LeaderElectionRecord released = new LeaderElectionRecord("", Duration.ofMillis(200), null, null, 2);
        assertThat(released.toLeaseSpec().getLeaseDurationSeconds()).isEqualTo(1);
    }
}

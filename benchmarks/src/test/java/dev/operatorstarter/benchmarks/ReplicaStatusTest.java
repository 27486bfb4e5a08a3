package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReplicaStatusTest {

    @Test
    void aStatusTravelsAsOneLineAndIsReadBackUnchanged() {
        ReplicaStatus status = new ReplicaStatus("MEMBER", true, 3, 0, -1, 1_012, 4, 2_030,
                new ReplicaStatus.Tally(1_012, 1_700_000_000_000L, 1_700_000_020_500L));

        assertThat(status.line()).doesNotContain("\n");
        assertThat(ReplicaStatus.parse(status.line())).isEqualTo(status);
        assertThat(ReplicaStatus.parse("  " + status.line() + " ")).isEqualTo(status);
    }

    @Test
    void aTallyKeepsTheEarliestStartAndTheLatestEndWhateverTheOrderOfItsReconciles() {
        ReplicaStatus.Tally tally = ReplicaStatus.Tally.NONE.plus(100, 120).plus(90, 110).plus(130, 150);

        assertThat(tally).isEqualTo(new ReplicaStatus.Tally(3, 90, 150));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "phase=MEMBER", "phase=MEMBER leader=true ready=1 unassigned=0 drains=0 cached=1 depth=0 "
            + "reconciles=1 wave=1,2", "phase=MEMBER leader=true ready=x unassigned=0 drains=0 cached=1 depth=0 "
            + "reconciles=1 wave=1,2,3", "status phase=MEMBER"})
    void aLineThatLacksAFieldOrHasABadOneIsRefused(String line) {
        assertThatIllegalArgumentException().isThrownBy(() -> ReplicaStatus.parse(line));
    }
}

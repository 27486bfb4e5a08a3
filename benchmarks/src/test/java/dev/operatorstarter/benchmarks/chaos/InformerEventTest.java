package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InformerEventTest {

    @Test
    void aLineReadsBackAsTheEventItWasWrittenFrom() {
        InformerEvent event = new InformerEvent(InformerEvent.Type.DELETE, "key-07", 4711, true, 1_700_000_000_123L);

        assertThat(event.line()).isEqualTo("DELETE key-07 4711 true 1700000000123");
        assertThat(InformerEvent.parse(event.line())).isEqualTo(event);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ADD key-01 5 false", "MODIFIED key-01 5 false 1", "ADD key-01 five false 1"})
    void aLineThatIsNotAnEventIsRejectedWithTheLineInTheMessage(String line) {
        assertThatIllegalArgumentException().isThrownBy(() -> InformerEvent.parse(line)).withMessageContaining("'" + line + "'");
    }

    @Test
    void onlyADeleteCanBeATombstone() {
        assertThatIllegalArgumentException().isThrownBy(() -> new InformerEvent(InformerEvent.Type.UPDATE, "key-01", 5,
                true, 1)).withMessageContaining("UPDATE");
    }
}

package dev.operatorstarter.benchmarks.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CacheCheckTest {

    @Test
    void aCacheEqualToTheListHasNoDifferences() {
        assertThat(CacheCheck.differences(Map.of("a", 1L, "b", 2L), Map.of("a", 1L, "b", 2L))).isEmpty();
    }

    @Test
    void aMissingNameAnExtraNameAndAStaleVersionAreEachReported() {
        assertThat(CacheCheck.differences(Map.of("a", 1L, "b", 2L, "gone", 3L), Map.of("a", 1L, "b", 5L, "new", 6L)))
                .containsExactly("b cached at 2, server has 5", "gone deleted on the server, cached at 3",
                        "new missing (server has 6)");
    }

    @Test
    void aNameTheServerNoLongerHasMustHaveBeenLastDeliveredAsADelete() {
        Map<String, InformerEvent> last = Map.of(
                "deleted", new InformerEvent(InformerEvent.Type.DELETE, "deleted", 9, false, 1),
                "tombstone", new InformerEvent(InformerEvent.Type.DELETE, "tombstone", 7, true, 1),
                "missed", new InformerEvent(InformerEvent.Type.UPDATE, "missed", 8, false, 1),
                "alive", new InformerEvent(InformerEvent.Type.ADD, "alive", 3, false, 1));

        assertThat(CacheCheck.undeliveredDeletions(last, Set.of("alive")))
                .containsExactly("missed (last told UPDATE at 8)");
    }
}

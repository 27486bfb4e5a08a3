package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.HeapHistogram.Row;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeapHistogramTest {

    private static final String BEFORE = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         11419        6759824  [B (java.base@17.0.15)
               2:          2049         249296  java.lang.Class (java.base@17.0.15)
               3:            10            240  java.lang.Gone (java.base@17.0.15)
            Total         13478        7009360
            """;
    private static final String AFTER = """
             num     #instances         #bytes  class name (module)
            -------------------------------------------------------
               1:         12419        7759824  [B (java.base@17.0.15)
               2:          2049         249296  java.lang.Class (java.base@17.0.15)
               3:             5            120  dev.operatorstarter.New
            Total         14473        8009240
            """;

    @Test
    void theDifferenceIsClassByClassTheLargestGrowthFirstWithClassesThatCameAndWent() {
        Map<String, Row> before = HeapHistogram.parse(BEFORE);
        assertThat(before).hasSize(3).containsEntry("[B", new Row("[B", 11_419, 6_759_824));

        List<Row> difference = HeapHistogram.difference(before, HeapHistogram.parse(AFTER));

        assertThat(difference).containsExactly(new Row("[B", 1_000, 1_000_000), new Row("dev.operatorstarter.New", 5, 120),
                new Row("java.lang.Class", 0, 0), new Row("java.lang.Gone", -10, -240));
    }

    @Test
    void theTableShowsTheLargestRowsAndSumsTheRest() {
        List<Row> difference = HeapHistogram.difference(HeapHistogram.parse(BEFORE), HeapHistogram.parse(AFTER));

        assertThat(HeapHistogram.markdown(difference, 1)).isEqualTo("""
                | class | instances | bytes |
                |---|---|---|
                | `[B` | 1,000 | 1,000,000 |
                | 3 other classes | -5 | -120 |
                | **total** | 995 | **999,880** |
                """);
    }
}

package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.operatorstarter.benchmarks.SyncBreakdown.Category;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;

class SyncReportTest {

    @Test
    void aSampleCountsForTheFirstFrameFromTheTopThatACategoryClaims() {
        assertThat(Category.of(List.of("java.util.HashMap.put", "dev.operatorstarter.cache.Interner.share",
                "dev.operatorstarter.cache.Reflector.consume"))).isEqualTo(Category.TRANSFORM);
        assertThat(Category.of(List.of("java.util.HashMap.put", "tools.jackson.databind.deser.BeanDeserializer.deserialize",
                "dev.operatorstarter.client.rest.WatchDecoding$EventReader.read"))).isEqualTo(Category.DECODE);
        assertThat(Category.of(List.of("java.lang.ClassLoader.loadClass",
                "tools.jackson.databind.deser.BeanDeserializer.deserialize"))).as("a class loaded while decoding")
                .isEqualTo(Category.CLASS_LOADING);
        // a method handle or a reflective access that only runs counts for its caller, not as linkage
        assertThat(Category.of(List.of("java.lang.invoke.DirectMethodHandle$Holder.invokeVirtual",
                "jdk.internal.reflect.MethodHandleObjectFieldAccessorImpl.get", "dev.operatorstarter.cache.Compaction.visit")))
                .isEqualTo(Category.TRANSFORM);
        assertThat(Category.of(List.of("java.lang.invoke.LambdaForm.compileToBytecode",
                "tools.jackson.databind.deser.BeanDeserializer.deserialize"))).isEqualTo(Category.CLASS_LOADING);
        assertThat(Category.of(List.of("java.lang.Thread.run"))).isEqualTo(Category.OTHER);
        assertThat(Category.of(List.of())).isEqualTo(Category.OTHER);
    }

    @Test
    void theTableShowsMediansAndSharesOverEveryRun() {
        SyncBreakdown fast = breakdown(1_000, Map.of(Category.DECODE, 3, Category.NETWORK, 1));
        SyncBreakdown middle = breakdown(2_000, Map.of(Category.DECODE, 1, Category.NETWORK, 3));
        SyncBreakdown slow = breakdown(9_000, Map.of());

        String table = SyncReport.markdown(new Workload(Workload.Kind.CONFIGMAPS, 10_000, 1),
                List.of(List.of(slow, fast, middle), List.of(fast, fast, fast)));

        assertThat(table).contains("Our informer over 10,001 ConfigMaps")
                .contains("| sync, cold JVM (ms) | 2,000 | 1,000 |")
                .contains("| CPU: decode (JSON to objects) | 50% | 75% |")
                .contains("| CPU samples (all runs) | 8 | 12 |");
    }

    @Test
    void theEndOfTheInitialEventsIsFoundAlsoWhereItSpansTwoBuffers() {
        byte[] stream = "{\"k8s.io/initiainitial-events-end\":\"true\"}".getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= stream.length; cut++) {
            SyncProfile.StreamSearch search = new SyncProfile.StreamSearch(
                    "initial-events-end".getBytes(StandardCharsets.UTF_8));
            boolean first = search.foundIn(DefaultDataBufferFactory.sharedInstance.wrap(Arrays.copyOfRange(stream, 0, cut)));
            boolean second = search.foundIn(DefaultDataBufferFactory.sharedInstance.wrap(
                    Arrays.copyOfRange(stream, cut, stream.length)));
            assertThat(first || second).as("cut at %d", cut).isTrue();
        }
        SyncProfile.StreamSearch search = new SyncProfile.StreamSearch("initial-events-end".getBytes(StandardCharsets.UTF_8));
        assertThat(search.foundIn(DefaultDataBufferFactory.sharedInstance.wrap("initial-events-en".getBytes(
                StandardCharsets.UTF_8)))).isFalse();
        assertThat(search.foundIn(DefaultDataBufferFactory.sharedInstance.wrap("x".getBytes(StandardCharsets.UTF_8))))
                .isFalse();
    }

    private static SyncBreakdown breakdown(long coldMillis, Map<Category, Integer> samples) {
        return new SyncBreakdown(coldMillis, coldMillis / 4, 10, 100, 1 << 20, 500, 4_000, samples, Duration.ofMillis(20),
                Duration.ofMillis(900));
    }
}

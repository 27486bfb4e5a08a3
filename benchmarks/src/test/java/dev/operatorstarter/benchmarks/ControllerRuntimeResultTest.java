package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ControllerRuntimeResultTest {

    @Test
    void anInformerLineGivesTheFiguresInTheOrderInformerRunPrintsThem() {
        // Go's encoding/json writes a map's keys in sorted order
        ControllerRuntimeResult result = ControllerRuntimeResult.parse("{\"objects\":301,\"retainedBytes\":2646016,"
                + "\"rssBytes\":61440000,\"scenario\":\"informer\",\"syncMillis\":212,\"warmSyncMillis\":35}");

        assertThat(result.scenario()).isEqualTo("informer");
        assertThat(ControllerRuntimeRuns.informerFigures(result)).containsExactly("212", "2646016", "301", "35", "61440000");
    }

    @Test
    void onlyTheLinesThatStartWithABraceAreResults() {
        List<ControllerRuntimeResult> results = ControllerRuntimeResult.parseAll(List.of(
                "I1128 23:59:00.000000  1 leaderelection.go:257] attempting to acquire leader lease",
                "{\"event\":\"ready\",\"identity\":\"first\",\"scenario\":\"operator\",\"unixNanos\":1}",
                "  {\"event\":\"elected\",\"identity\":\"first\",\"scenario\":\"operator\",\"unixNanos\":2}"));

        assertThat(results).extracting(result -> result.event().orElseThrow()).containsExactly("ready", "elected");
        assertThat(results.get(1).text("identity")).isEqualTo("first");
    }

    @Test
    void aLineThatIsNotJsonOrHasNoScenarioIsRefusedQuotingIt() {
        assertThatThrownBy(() -> ControllerRuntimeResult.parse("{not json"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not JSON: {not json");
        assertThatThrownBy(() -> ControllerRuntimeResult.parse("{\"syncMillis\":1}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a scenario: {\"syncMillis\":1}");
        assertThatThrownBy(() -> ControllerRuntimeResult.parse("[1]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a scenario");
    }

    @Test
    void aMissingOrMistypedFieldIsNamedWithTheLine() {
        ControllerRuntimeResult result = ControllerRuntimeResult.parse(
                "{\"scenario\":\"latency\",\"p50Millis\":\"fast\",\"samples\":1.5}");

        assertThatThrownBy(() -> result.decimal("p50Millis")).hasMessageContaining("latency result has no number p50Millis");
        assertThatThrownBy(() -> result.number("samples")).hasMessageContaining("no whole number samples");
        assertThatThrownBy(() -> result.number("p99Millis")).hasMessageContaining("p99Millis").hasMessageContaining(
                result.line());
        assertThat(result.event()).isEmpty();
    }

    @Test
    void aStartUpIsTimedFromTheLaunchToTheWallClockOfTheFirstReconcile() {
        Instant launched = Instant.parse("2026-11-28T23:00:00Z");
        long reconciled = launched.getEpochSecond() * 1_000_000_000L + 412_345_678L;
        ControllerRuntimeResult result = ControllerRuntimeResult.parse("{\"cpuMillis\":150,\"event\":\"first-reconcile\","
                + "\"identity\":\"\",\"scenario\":\"operator\",\"sinceStartMillis\":400,\"unixNanos\":" + reconciled + "}");

        StartupTime.Sample sample = ControllerRuntimeRuns.startupSample(launched, result);

        assertThat(sample.firstReconcile()).isEqualTo(Duration.ofNanos(412_345_678L));
        assertThat(sample.cpu()).isEqualTo(Duration.ofMillis(150));
        assertThatThrownBy(() -> ControllerRuntimeRuns.startupSample(launched, ControllerRuntimeResult.parse(
                "{\"event\":\"ready\",\"scenario\":\"operator\",\"unixNanos\":1}")))
                .hasMessageContaining("without its first reconcile");
    }

    @Test
    void theInformerFlagsMatchInformerRunsArgumentsAndPickTheTransform() {
        assertThat(ControllerRuntimeRuns.informerFlags(Subject.CONTROLLER_RUNTIME, Projection.METADATA_ONLY,
                Workload.Kind.PODS, "bench-pods-300", java.nio.file.Path.of("/k"))).containsExactly("-kubeconfig=/k",
                "-namespace=bench-pods-300", "-kind=pods", "-projection=metadata", "-transform=strip");
        assertThat(ControllerRuntimeRuns.informerFlags(Subject.CONTROLLER_RUNTIME_NO_TRANSFORM, Projection.FULL_OBJECTS,
                Workload.Kind.CONFIGMAPS, "ns", java.nio.file.Path.of("/k"))).contains("-transform=none", "-projection=full");
        assertThatThrownBy(() -> ControllerRuntimeRuns.informerFlags(Subject.OURS, Projection.FULL_OBJECTS,
                Workload.Kind.PODS, "ns", java.nio.file.Path.of("/k"))).isInstanceOf(IllegalArgumentException.class);
    }
}

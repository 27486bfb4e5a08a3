package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ArgumentsTest {

    @Test
    void withoutArgumentsEverySectionRunsWithTheFullCurve() {
        Arguments arguments = Arguments.parse("--full");

        assertThat(arguments.quick()).isFalse();
        assertThat(arguments.sections()).containsExactly("informers", "profile", "latency", "sharding", "failover",
                "priority", "watch", "jmh", "startup");
        assertThat(arguments.curve()).isEqualTo(ScaleCurve.FULL);
        assertThat(arguments.sharding()).isEqualTo(ShardingScaleOut.Plan.FULL);
        assertThat(Arguments.parse()).isEqualTo(arguments);
    }

    @Test
    void quickTakesTheQuickCurveAndArgumentsPassedAsOneStringAreSplitAgain() {
        Arguments arguments = Arguments.parse(" -quick   --only=jmh,informers ");

        assertThat(arguments.quick()).isTrue();
        assertThat(arguments.sections()).containsExactly("informers", "jmh");
        assertThat(Arguments.parse("--only=cold,informers").sections()).containsExactly("informers", "cold");
        assertThat(arguments.curve()).isEqualTo(ScaleCurve.QUICK);
        assertThat(arguments.sharding()).isEqualTo(ShardingScaleOut.Plan.QUICK);
    }

    @Test
    void theShardingSectionRunsAloneWithOtherObjectsAndReplicaCounts() {
        Arguments arguments = Arguments.parse("--only=sharding", "--sharding-objects=1k", "--sharding-replicas=2,3");

        assertThat(arguments.sections()).containsExactly("sharding");
        assertThat(arguments.sharding()).isEqualTo(new ShardingScaleOut.Plan(1_000, List.of(2, 3)));
        assertThat(Arguments.parse("-quick", "--sharding-replicas=1").sharding())
                .isEqualTo(new ShardingScaleOut.Plan(ShardingScaleOut.Plan.QUICK.objects(), List.of(1)));
    }

    @Test
    void sizesCanBeGivenInThousandsAndAnEmptyListLeavesAKindOut() {
        Arguments arguments = Arguments.parse("--only=informers", "--configmaps=50k,1000", "--pods=");

        assertThat(arguments.curve().workloads()).containsExactly(
                new Workload(Workload.Kind.CONFIGMAPS, 1_000, ScaleCurve.RUNS),
                new Workload(Workload.Kind.CONFIGMAPS, 50_000, ScaleCurve.LARGEST_RUNS));
    }

    @Test
    void oneKindsSizesKeepTheOtherKindsDefaults() {
        Arguments arguments = Arguments.parse("-quick", "--pods=10k");

        assertThat(arguments.curve().sizes(Workload.Kind.CONFIGMAPS))
                .isEqualTo(ScaleCurve.QUICK.sizes(Workload.Kind.CONFIGMAPS));
        assertThat(arguments.curve().sizes(Workload.Kind.PODS)).containsExactly(new Workload(Workload.Kind.PODS, 10_000, 1));
    }

    @Test
    void runsAppliesToEverySizeAndToTheEmptyNamespace() {
        ScaleCurve curve = Arguments.parse("--runs=2").curve();

        assertThat(curve.workloads()).extracting(Workload::runs).containsOnly(2);
        assertThat(curve.baselineRuns()).isEqualTo(2);
        assertThat(curve.workloads()).extracting(Workload::objects)
                .containsExactly(1_000, 10_000, 50_000, 2_000, 10_000);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--only=informers,bogus", "--configmaps=ten", "--pods=0", "--runs=-1", "--configmaps=1k,1000",
            "--fast", "--configmaps=9999999k", "--sharding-objects=0", "--sharding-replicas=", "--sharding-replicas=3,2",
            "--sharding-replicas=1,1", "--sharding-replicas=two"})
    void badArgumentsAreRefusedNamingTheArgument(String argument) {
        String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;

        assertThatIllegalArgumentException().isThrownBy(() -> Arguments.parse(argument))
                .satisfies(e -> assertThat(e.getMessage()).containsAnyOf(name, "configmaps: each size once"));
    }

    @Test
    void theStartupSectionRunsTheVariantsNamedByKeyTheGivenNumberOfTimes() {
        Arguments arguments = Arguments.parse("--only=startup", "--runs=3",
                "--startup-variants=extracted-aot-cache-spring-aot,extracted-aot-cache-spring-aot-c1-only");

        assertThat(arguments.startup()).isEqualTo(new Arguments.Startup(List.of("extracted-aot-cache-spring-aot",
                "extracted-aot-cache-spring-aot-c1-only"), 3));
        assertThat(Arguments.parse("--only=startup").startup()).isEqualTo(Arguments.Startup.DEFAULT);
        assertThatIllegalArgumentException().isThrownBy(() -> Arguments.parse("--startup-variants=extracted,jit"))
                .withMessageContaining("--startup-variants: no such variant: jit (fat-jar, launcher-exploded, extracted, ");
    }

    @Test
    void sectionsKeepTheSuitesOrder() {
        assertThat(Arguments.parse("--only=watch,latency").sections()).isEqualTo(List.of("latency", "watch"));
    }
}

package dev.operatorstarter.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The benchmark measures what the image runs: the Dockerfile's commands are the {@link StartupVariant#cds} variant's. */
class StartupVariantTest {

    private static final Path DOCKERFILE = Path.of(System.getProperty("sample.module", "../sample-operator"), "Dockerfile");

    @Test
    void theDockerfileExtractsTheLayersAsTheBenchmarkDoes() throws Exception {
        assertThat(Files.readString(DOCKERFILE))
                .contains("RUN " + String.join(" ", StartupVariant.extract(StartupVariant.Layout.EXTRACTED)) + "\n");
    }

    @Test
    void theDockerfilesTrainingRunAndEntryPointAreTheCdsVariants() throws Exception {
        StartupVariant cds = StartupVariant.cds(StartupVariant.IMAGE_TRAINING_KUBECONFIG);
        String dockerfile = Files.readString(DOCKERFILE);

        assertThat(dockerfile).contains("target=" + StartupVariant.IMAGE_TRAINING_KUBECONFIG + " \\\n    "
                + StartupVariant.execForm(cds.training()) + "\n");
        assertThat(dockerfile).contains("ENTRYPOINT " + StartupVariant.execForm(cds.launch()) + "\n");
    }

    @Test
    void theTrainingKubeconfigTheDockerfileMountsExists() throws Exception {
        assertThat(Files.readString(DOCKERFILE)).contains("source=sample-operator/src/main/docker/training-kubeconfig.yaml,");
        assertThat(DOCKERFILE.resolveSibling("src/main/docker/training-kubeconfig.yaml")).isRegularFile();
    }

    @Test
    void theCheckRequiresTheArchiveTheTrainingWrote() {
        assertThat(StartupVariant.cds("k").check()).contains("-Xshare:on", "-XX:SharedArchiveFile=application.jsa",
                StartupVariant.EXIT_ON_REFRESH);
        assertThat(StartupVariant.aotCache("k").check()).contains("-XX:AOTMode=on", "-XX:AOTCache=application.aot",
                StartupVariant.EXIT_ON_REFRESH);
        assertThat(StartupVariant.cdsLazy("k").launch()).endsWith(StartupVariant.LAZY);
    }

    @Test
    void theReportHasARowPerVariantWithMinMedianAndMaxInSeconds() {
        Jdk suite = new Jdk(Path.of("/jdk17"), "17.0.15", "Debian");
        Jdk newer = new Jdk(Path.of("/jdk25"), "25.0.3", "Eclipse Adoptium");
        Map<StartupVariant, List<StartupTime.Sample>> samples = new LinkedHashMap<>();
        samples.put(StartupVariant.fatJar(), List.of(sample(13_000, 17_400, 20_000), sample(12_000, 16_000, 19_000),
                sample(15_500, 19_250, 21_000)));
        samples.put(StartupVariant.aotCache("k"), List.of(sample(2_500, 3_900, 5_000)));
        Map<StartupVariant, StartupTime.Training> trainings = Map.of(StartupVariant.aotCache("k"),
                new StartupTime.Training(Duration.ofMillis(21_400), 80L << 20));

        String markdown = StartupTime.markdown(3, suite, Optional.of(newer), samples, trainings);

        assertThat(markdown).contains("| fat jar | 17.0.15 | `java -jar application.jar` | – | 12.00 / 13.00 / 15.50 "
                + "| 16.00 / 17.40 / 19.25 | 19.00 / 20.00 / 21.00 |\n");
        assertThat(markdown).contains("| extracted + AOT cache | 25.0.3 | `java -XX:AOTCache=application.aot -jar "
                + "application.jar` | 21.4 s, 80 MiB | 2.50 / 2.50 / 2.50 | 3.90 / 3.90 / 3.90 | 5.00 / 5.00 / 5.00 |\n");
        assertThat(markdown).contains("JDKs: 17.0.15 (Debian); 25.0.3 (Eclipse Adoptium) for the AOT cache.");
    }

    @Test
    void withoutANewerJdkTheReportSaysWhyThereIsNoAotCache() {
        String markdown = StartupTime.markdown(1, new Jdk(Path.of("/jdk17"), "17.0.15", ""), Optional.empty(),
                Map.of(StartupVariant.fatJar(), List.of(sample(1_000, 2_000, 3_000))), Map.of());

        assertThat(markdown).contains("of 1 run per variant").contains("no JDK 25 or later found (" + Jdk.NEWER_JDK_VARIABLE);
    }

    private static StartupTime.Sample sample(long startedMillis, long reconcileMillis, long cpuMillis) {
        return new StartupTime.Sample(Duration.ofMillis(startedMillis), Duration.ofMillis(reconcileMillis),
                Duration.ofMillis(cpuMillis));
    }

    @Test
    void springsAotModeIsOnInTheTrainingTheCheckAndTheLaunch() {
        StartupVariant aot = StartupVariant.springAot(StartupVariant.aotCache("k"));
        assertThat(aot.name()).isEqualTo("extracted + AOT cache + Spring AOT");
        assertThat(List.of(aot.training(), aot.check(), aot.launch())).allSatisfy(command -> assertThat(command)
                .startsWith("java", "-Dspring.aot.enabled=true"));
        assertThat(StartupVariant.springAot(StartupVariant.extracted(false)).training()).isEmpty();
    }

    @Test
    void extraOptionsGoRightAfterJavaInTheTrainingTheCheckAndTheLaunch() {
        StartupVariant c1 = StartupVariant.withOptions(StartupVariant.aotCache("k"), "C1 only", "-XX:TieredStopAtLevel=1");

        assertThat(c1.name()).isEqualTo("extracted + AOT cache + C1 only");
        assertThat(List.of(c1.training(), c1.check(), c1.launch())).allSatisfy(command -> assertThat(command)
                .startsWith("java", "-XX:TieredStopAtLevel=1"));
        assertThat(StartupVariant.withOptions(StartupVariant.extracted(true), "x", "-Dx").training()).isEmpty();
    }

    @Test
    void aTrainingToTheFirstReconcileDoesNotStopOnRefreshNorUseThePlaceholderKubeconfig() {
        StartupVariant trained = StartupVariant.trainedToReconcile(StartupVariant.aotCache("k"));

        assertThat(trained.training()).containsExactly("java", "-XX:AOTCacheOutput=application.aot", "-jar",
                StartupVariant.JAR);
        assertThat(trained.launch()).isEqualTo(StartupVariant.aotCache("k").launch());
        assertThat(trained.check()).isEqualTo(StartupVariant.aotCache("k").check());
    }

    @Test
    void everyVariantHasAKeyOfItsOwnOnItsJdk() {
        List<StartupVariant> variants = StartupTime.variants("k");

        assertThat(variants.stream().map(variant -> StartupTime.key(variant) + variant.newerJdk()).distinct())
                .hasSameSizeAs(variants);
        assertThat(StartupTime.KEYS).containsAll(StartupTime.DEFAULT_VARIANTS).contains("extracted-aot-cache-spring-aot-c1-only");
    }
}

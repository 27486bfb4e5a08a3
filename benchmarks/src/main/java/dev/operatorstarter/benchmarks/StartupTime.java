package dev.operatorstarter.benchmarks;

import dev.operatorstarter.client.GroupVersionResource;
import dev.operatorstarter.client.KubernetesClient;
import dev.operatorstarter.client.ResourceClient;
import dev.operatorstarter.client.config.KubeconfigLoader;
import dev.operatorstarter.test.Eventually;
import dev.operatorstarter.test.local.LocalApiServer;
import dev.operatorstarter.test.local.LocalApiServerOptions;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Start-up to first reconcile of the sample operator's executable jar, launched as a fresh JVM per
 * run the way its image launches it: the packaged jar; the layers extracted as the Dockerfile
 * extracts them, with and without a class-data archive from a training run; and, on a JDK of 24
 * or later, with the AOT cache. Each run gets a namespace of its own holding one StaticSite, and
 * the operator is told to watch only that namespace and to hold its lease there, so every run
 * starts from the same state: nothing cached, no lease to wait for, one site to reconcile.
 *
 * <p>Times are from process launch (taken just before the process is created) to the timestamps
 * the operator writes on its own log lines ({@link StartupLog}): Spring Boot's {@code Started}
 * line and the first reconcile's status line. Variants are interleaved run by run, so a load that
 * comes and goes on the machine falls on all of them.
 */
final class StartupTime {

    private static final Logger log = LoggerFactory.getLogger(StartupTime.class);

    static final int RUNS = 5;
    static final int QUICK_RUNS = 1;
    /** The AOT cache came with JDK 24 (JEP 483); {@code -XX:AOTCacheOutput} with 25 (JEP 514). */
    static final int AOT_CACHE_JDK = 25;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration TRAINING_TIMEOUT = Duration.ofMinutes(5);
    private static final GroupVersionResource STATIC_SITES = new GroupVersionResource("sample.operatorstarter.dev",
            "v1alpha1", "staticsites");
    private static final String SITE = "site";
    private static final List<String> LAYERS = List.of("dependencies", "spring-boot-loader", "snapshot-dependencies",
            "application");

    /**
     * One run: from launch to Spring Boot's {@code Started} line, and to the first reconcile; and the
     * CPU time the process had used by the first reconcile.
     */
    record Sample(Duration started, Duration firstReconcile, Duration cpu) {
    }

    /** A variant's preparation: how long its training took and how large the archive is (0 and 0 for none). */
    record Training(Duration took, long archiveBytes) {
        static final Training NONE = new Training(Duration.ZERO, 0);
    }

    private StartupTime() {
    }

    /**
     * Every variant the section knows, in the report's order; {@code trainingKubeconfig} is where
     * the training runs find their kubeconfig. Those on the newer JDK come last.
     */
    static List<StartupVariant> variants(String trainingKubeconfig) {
        StartupVariant aotCache = StartupVariant.aotCache(trainingKubeconfig);
        StartupVariant best = StartupVariant.springAot(aotCache);
        StartupVariant bestC1 = StartupVariant.withOptions(best, "C1 only", "-XX:TieredStopAtLevel=1");
        return List.of(StartupVariant.fatJar(), StartupVariant.launcher(), StartupVariant.extracted(false),
                StartupVariant.cds(trainingKubeconfig), StartupVariant.cdsLazy(trainingKubeconfig),
                StartupVariant.springAot(StartupVariant.cds(trainingKubeconfig)),
                StartupVariant.withOptions(StartupVariant.cds(trainingKubeconfig), "C1 only", "-XX:TieredStopAtLevel=1"),
                StartupVariant.extracted(true), aotCache,
                best, bestC1,
                StartupVariant.withOptions(best, "serial GC", "-XX:+UseSerialGC"),
                StartupVariant.withOptions(best, "serial GC + C1 only", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                StartupVariant.withOptions(best, "no background pre-initializer",
                        "-Dspring.backgroundpreinitializer.ignore=true"),
                StartupVariant.withOptions(best, "timeline", TIMELINE), StartupVariant.trainedToReconcile(best),
                StartupVariant.trainedToReconcile(bestC1), StartupVariant.withOptions(bestC1, "timeline", TIMELINE),
                StartupVariant.withOptions(bestC1, "JFR", "-XX:StartFlightRecording=filename=startup.jfr,settings=profile"));
    }

    /**
     * JVM options that make a run's log a timeline, not a measurement: the JVM's start-up phases, the
     * compilers' time (printed at exit), and each bean's creation and the operator's steps at debug level.
     */
    static final String[] TIMELINE = {"-Xlog:startuptime", "-XX:+CITime",
            "-Dlogging.level.org.springframework.beans.factory.support.DefaultListableBeanFactory=debug",
            "-Dlogging.level.dev.operatorstarter=debug"};

    /** The variants run unless {@code --startup-variants} names others: those without extra JVM options. */
    static final List<String> DEFAULT_VARIANTS = List.of("fat-jar", "launcher-exploded", "extracted", "extracted-cds",
            "extracted-cds-all-lazy", "extracted-cds-spring-aot", "extracted-aot-cache", "extracted-aot-cache-spring-aot");
    /** The keys {@code --startup-variants} takes. */
    static final List<String> KEYS = variants("").stream().map(StartupTime::key).distinct().toList();

    /** A variant's key for {@code --startup-variants}: its name in lower case, words joined by {@code -}. */
    static String key(StartupVariant variant) {
        return variant.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }

    /** The section of the report; the sample module's jar must have been packaged. */
    static String section(boolean quick, Arguments.Startup choice, Path work) throws Exception {
        Path module = Path.of(System.getProperty("sample.module", "../sample-operator")).toAbsolutePath().normalize();
        Path jar = packagedJar(module);
        Path trainingKubeconfig = module.resolve("src/main/docker/training-kubeconfig.yaml");
        Path crd = module.resolve("../helm/sample-operator/files/crds/staticsites.sample.operatorstarter.dev.yaml").normalize();
        Jdk suiteJdk = Jdk.current();
        Optional<Jdk> newerJdk = Jdk.newer(AOT_CACHE_JDK, System.getenv());
        List<String> chosen = choice.variants().isEmpty() ? DEFAULT_VARIANTS : choice.variants();
        List<StartupVariant> variants = new ArrayList<>(variants(trainingKubeconfig.toString()).stream()
                .filter(variant -> chosen.contains(key(variant))).toList());
        if (newerJdk.isEmpty()) {
            variants.removeIf(StartupVariant::newerJdk);
            log.warn("start-up: no JDK {} or later (set {}), so no AOT cache variant", AOT_CACHE_JDK, Jdk.NEWER_JDK_VARIABLE);
        }
        int runs = choice.runs() > 0 ? choice.runs() : quick ? QUICK_RUNS : RUNS;
        Path folder = work.resolve("startup");
        deleteRecursively(folder);
        Map<StartupVariant, Path> directories = new LinkedHashMap<>();
        Map<StartupVariant, Training> trainings = new LinkedHashMap<>();
        Map<StartupVariant, List<Sample>> samples = new LinkedHashMap<>();
        List<Sample> controllerRuntime = new ArrayList<>();
        try (LocalApiServer server = LocalApiServer.start(LocalApiServerOptions.defaults());
                KubernetesClient admin = KubernetesClient.create(KubeconfigLoader.load(server.connection().kubeconfig(),
                        null))) {
            installCrd(admin, crd);
            for (StartupVariant variant : variants) {
                Jdk jdk = variant.newerJdk() ? newerJdk.orElseThrow() : suiteJdk;
                Path directory = layout(variant.layout(), jar, folder.resolve(directoryName(variant)), suiteJdk);
                directories.put(variant, directory);
                Path logs = folder.resolve("logs").resolve(directoryName(variant));
                trainings.put(variant, train(variant, jdk, directory, logs, admin, server.connection().kubeconfig(),
                        "startup-training-" + (trainings.size() + 1)));
            }
            int namespaces = 0;
            for (int run = 1; run <= runs; run++) {
                for (StartupVariant variant : variants) {
                    String namespace = "startup-" + ++namespaces;
                    Jdk jdk = variant.newerJdk() ? newerJdk.orElseThrow() : suiteJdk;
                    Sample sample = measure(variant, jdk, directories.get(variant), admin, server.connection().kubeconfig(),
                            namespace, folder.resolve("logs").resolve(namespace + ".log"));
                    samples.computeIfAbsent(variant, v -> new ArrayList<>()).add(sample);
                    log.info("start-up {} on {}, run {}: started {} ms, first reconcile {} ms, {} ms CPU", variant.name(),
                            jdk.version(), run, sample.started().toMillis(), sample.firstReconcile().toMillis(),
                            sample.cpu().toMillis());
                }
                String namespace = "startup-controller-runtime-" + run;
                admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                        .build());
                admin.coreV1().configMaps().inNamespace(namespace).create(new ConfigMapBuilder().withNewMetadata()
                        .withName(SITE).endMetadata().addToData("index.html", "<h1>start-up</h1>").build());
                Sample sample = ControllerRuntimeRuns.startup(server.connection().kubeconfig(), namespace);
                controllerRuntime.add(sample);
                log.info("start-up {}, run {}: first reconcile {} ms, {} ms CPU", ControllerRuntime.label(), run,
                        sample.firstReconcile().toMillis(), sample.cpu().toMillis());
            }
        }
        return markdown(runs, suiteJdk, newerJdk, samples, trainings, controllerRuntime);
    }

    /** The section's text and table, without controller-runtime's row. */
    static String markdown(int runs, Jdk suiteJdk, Optional<Jdk> newerJdk, Map<StartupVariant, List<Sample>> samples,
            Map<StartupVariant, Training> trainings) {
        return markdown(runs, suiteJdk, newerJdk, samples, trainings, List.of());
    }

    /**
     * The section's text and table; {@code controllerRuntime}'s runs, if any, in a last row: its
     * smallest operator (a manager with one ConfigMap controller) from process launch to its first
     * reconcile.
     */
    static String markdown(int runs, Jdk suiteJdk, Optional<Jdk> newerJdk, Map<StartupVariant, List<Sample>> samples,
            Map<StartupVariant, Training> trainings, List<Sample> controllerRuntime) {
        StringBuilder text = new StringBuilder("### Start-up to first reconcile (sample operator)\n\n")
                .append("The sample operator's executable jar launched as a fresh JVM, against the local API server, ")
                .append("watching one namespace that holds one StaticSite: seconds from process launch to Spring Boot's ")
                .append("`Started` line (context refreshed, informer caches synced, web server up: the startup probe ")
                .append("passes from here) and to the site's first reconcile (its status line in the log); min / median / ")
                .append("max of ").append(runs).append(runs == 1 ? " run" : " runs").append(" per variant, interleaved. ")
                .append("Commands as the image runs them, in the layout's folder, followed by the run's ")
                .append("`--operator.*`, `--sample.*` and `--server.port=0` arguments; the archives come from a training ")
                .append("run that stops on refresh (`-Dspring.context.exit=onRefresh`), as in the Dockerfile. CPU: the ")
                .append("process's user and system time, all threads, when its first-reconcile line was read; it depends ")
                .append("less than the wall time on other load on the machine.\n\n")
                .append("| variant | JDK | command | training, archive | to `Started` (s) | to first reconcile (s) | ")
                .append("CPU to first reconcile (s) |\n|---|---|---|---|---|---|---|\n");
        samples.forEach((variant, list) -> {
            Jdk jdk = variant.newerJdk() ? newerJdk.orElseThrow() : suiteJdk;
            Training training = trainings.getOrDefault(variant, Training.NONE);
            String command = String.join(" ", variant.launch());
            text.append("| ").append(variant.name()).append(" | ").append(jdk.version()).append(" | `")
                    .append(command).append("` | ")
                    .append(training.archiveBytes() == 0 ? "–" : String.format("%.1f s, %d MiB",
                            training.took().toMillis() / 1000.0, training.archiveBytes() >> 20))
                    .append(" | ").append(stats(list.stream().map(Sample::started).toList()))
                    .append(" | ").append(stats(list.stream().map(Sample::firstReconcile).toList()))
                    .append(" | ").append(stats(list.stream().map(Sample::cpu).toList())).append(" |\n");
        });
        if (!controllerRuntime.isEmpty()) {
            text.append("| ").append(ControllerRuntime.label()).append(" (Go) | – | a manager with one ConfigMap controller over ")
                    .append("a namespace holding one | – | – | ")
                    .append(stats(controllerRuntime.stream().map(Sample::firstReconcile).toList())).append(" | ")
                    .append(stats(controllerRuntime.stream().map(Sample::cpu).toList())).append(" |\n");
        }
        text.append("\nJDKs: ").append(suiteJdk.label());
        newerJdk.ifPresent(jdk -> text.append("; ").append(jdk.label()).append(" for the AOT cache"));
        if (newerJdk.isEmpty()) {
            text.append("; no JDK ").append(AOT_CACHE_JDK).append(" or later found (").append(Jdk.NEWER_JDK_VARIABLE)
                    .append("), so no AOT cache");
        }
        return text.append(".\n").toString();
    }

    private static String stats(List<Duration> durations) {
        return Stats.of(durations.stream().map(Duration::toMillis).toList()).format("", 1000).strip();
    }

    private static Path packagedJar(Path sample) throws IOException {
        Path target = sample.resolve("target");
        if (Files.isDirectory(target)) {
            try (Stream<Path> files = Files.list(target)) {
                Optional<Path> jar = files.filter(file -> file.getFileName().toString().matches("sample-operator-.*\\.jar"))
                        .max(Comparator.comparing(file -> file.toFile().lastModified()));
                if (jar.isPresent()) {
                    return jar.get();
                }
            }
        }
        throw new IllegalStateException("no executable jar in " + target + ": package it first, "
                + "mvn -pl sample-operator -am package -DskipTests (benchmarks/run does)");
    }

    /** {@code fat-jar}, {@code extracted-cds-25}: a folder per variant, so no archive is shared. */
    private static String directoryName(StartupVariant variant) {
        return variant.name().replaceAll("[^a-zA-Z0-9]+", "-").replaceAll("-$", "") + (variant.newerJdk() ? "-newer" : "");
    }

    /**
     * The jar laid out in {@code directory}; for the extracted layouts as the Dockerfile does it: the
     * jar extracted into layers, and the layers copied into one folder in the Dockerfile's order.
     * Returns the folder the operator runs in.
     */
    private static Path layout(StartupVariant.Layout layout, Path jar, Path directory, Jdk jdk) throws Exception {
        Files.createDirectories(directory);
        Files.copy(jar, directory.resolve(StartupVariant.JAR), StandardCopyOption.COPY_ATTRIBUTES);
        if (layout == StartupVariant.Layout.FAT_JAR) {
            return directory;
        }
        List<String> extract = withJava(StartupVariant.extract(layout), jdk);
        run(extract, directory, directory.resolve("extract.log"), Duration.ofMinutes(2));
        Path application = directory.resolve("application");
        Files.createDirectories(application);
        for (String layer : LAYERS) {
            copyRecursively(directory.resolve("extracted").resolve(layer), application);
        }
        return application;
    }

    /**
     * The variant's training run and the check that the JVM accepts the archive it wrote. A training
     * that does not exit on refresh runs against the server, as a measured run does, and is stopped
     * (SIGTERM: the JVM writes the archive as it exits) once it has reconciled its site in
     * {@code namespace}.
     */
    private static Training train(StartupVariant variant, Jdk jdk, Path directory, Path logs, KubernetesClient admin,
            Path kubeconfig, String namespace) throws Exception {
        if (variant.training().isEmpty()) {
            return Training.NONE;
        }
        Files.createDirectories(logs);
        log.info("start-up: training run for {} on {}", variant.name(), jdk.version());
        long started = System.nanoTime();
        if (variant.training().contains(StartupVariant.EXIT_ON_REFRESH)) {
            run(withJava(variant.training(), jdk), directory, logs.resolve("training.log"), TRAINING_TIMEOUT);
        } else {
            createSite(admin, namespace);
            List<String> command = new ArrayList<>(withJava(variant.training(), jdk));
            command.addAll(arguments(kubeconfig, namespace));
            try (OperatorLaunch launch = OperatorLaunch.start(command, directory, logs.resolve("training.log"),
                    namespace + "/" + SITE)) {
                launch.await(StartupLog.Milestone.FIRST_RECONCILE, START_TIMEOUT);
            }
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        run(withJava(variant.check(), jdk), directory, logs.resolve("check.log"), TRAINING_TIMEOUT);
        long bytes = 0;
        for (String archive : List.of("application.jsa", "application.aot")) {
            Path file = directory.resolve(archive);
            if (Files.exists(file)) {
                bytes += Files.size(file);
            }
        }
        return new Training(took, bytes);
    }

    private static Sample measure(StartupVariant variant, Jdk jdk, Path directory, KubernetesClient admin, Path kubeconfig,
            String namespace, Path logFile) throws Exception {
        ResourceClient<GenericKubernetesResource> sites = createSite(admin, namespace);
        List<String> command = new ArrayList<>(withJava(variant.launch(), jdk));
        command.addAll(arguments(kubeconfig, namespace));
        try (OperatorLaunch launch = OperatorLaunch.start(command, directory, logFile, namespace + "/" + SITE)) {
            Duration firstReconcile = launch.await(StartupLog.Milestone.FIRST_RECONCILE, START_TIMEOUT);
            Duration started = launch.await(StartupLog.Milestone.STARTED, Duration.ofSeconds(30));
            // the log line comes just before the status write: the run counts once the write has landed
            Eventually.await("the status of " + namespace + "/" + SITE + " to report generation 1", Duration.ofSeconds(30),
                    () -> sites.get(SITE).getAdditionalProperties().get("status"),
                    status -> status instanceof Map<?, ?> map && map.get("observedGeneration") instanceof Number generation
                            && generation.longValue() == 1);
            return new Sample(started, firstReconcile, launch.cpu(StartupLog.Milestone.FIRST_RECONCILE));
        }
    }

    /** A namespace holding one StaticSite; the site's client. */
    private static ResourceClient<GenericKubernetesResource> createSite(KubernetesClient admin, String namespace) {
        admin.coreV1().namespaces().create(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build());
        ResourceClient<GenericKubernetesResource> sites = admin.dynamic(STATIC_SITES).inNamespace(namespace);
        sites.create(new GenericKubernetesResourceBuilder().withApiVersion("sample.operatorstarter.dev/v1alpha1")
                .withKind("StaticSite").withNewMetadata().withName(SITE).endMetadata()
                .addToAdditionalProperties("spec", Map.of("replicas", 1, "content", Map.of("index.html", "<h1>start-up</h1>")))
                .build());
        return sites;
    }

    /** The operator's arguments for a run on {@code namespace}: it watches that namespace and holds its lease there. */
    private static List<String> arguments(Path kubeconfig, String namespace) {
        return List.of("--operator.client.kubeconfig=" + kubeconfig, "--server.port=0",
                "--operator.informers.namespaces=" + namespace, "--operator.leader-election.lease-namespace=" + namespace,
                "--sample.site-index.namespace=" + namespace);
    }

    private static void installCrd(KubernetesClient admin, Path file) throws IOException {
        CustomResourceDefinition crd = YAMLMapper.builder().build().readValue(file.toFile(), CustomResourceDefinition.class);
        admin.apiextensionsV1().customResourceDefinitions().create(crd);
        Eventually.await("the StaticSite CRD to be served", Duration.ofMinutes(1),
                () -> admin.dynamic(STATIC_SITES).inNamespace("default").list(), list -> true);
    }

    private static List<String> withJava(List<String> command, Jdk jdk) {
        List<String> resolved = new ArrayList<>(command);
        resolved.set(0, jdk.java().toString());
        return resolved;
    }

    /** Runs {@code command} to its end; fails unless it exits 0 in time, naming its log. */
    private static void run(List<String> command, Path directory, Path logFile, Duration timeout) throws Exception {
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
                .redirectOutput(logFile.toFile()).start();
        if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeout + "; see " + logFile);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + process.exitValue() + "; see "
                    + logFile);
        }
    }

    private static void copyRecursively(Path from, Path to) throws IOException {
        if (!Files.isDirectory(from)) {
            return; // an empty layer may not be written at all
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot delete " + file, e);
                }
            }
        }
    }
}

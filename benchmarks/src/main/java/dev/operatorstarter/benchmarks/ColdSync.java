package dev.operatorstarter.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scale curve's cold sync with each subject's own class-data archive, as a deployment runs it:
 * per subject, kind and projection one training run of {@link InformerRun} on the baseline namespace
 * (one object of the kind: an image's build sees no production data) writes a JDK 17 AppCDS archive
 * and, on a JDK of 25 or later, an AOT cache; then every run maps it. Beside those, the same subject
 * with no archive on each JDK and controller-runtime's Go program, interleaved run by run, on the
 * workloads of the scale curve. Time to synced counts from before the client is made, as in the
 * scale curve; the JVM's own start is not counted.
 */
final class ColdSync {

    private static final Logger log = LoggerFactory.getLogger(ColdSync.class);
    /** The Java subjects measured: each with its default options. */
    static final List<Subject> SUBJECTS = List.of(Subject.OURS, Subject.FABRIC8, Subject.OFFICIAL);

    /** What one archive was trained for. */
    record Key(Subject subject, Projection projection, Workload.Kind kind) {
        String fileName() {
            return subject.name().toLowerCase(Locale.ROOT) + "-" + kind.resource() + "-" + projection.argument();
        }
    }

    private ColdSync() {
    }

    /** The subjects of the scale curve on {@code workload} that this section measures, controller-runtime last. */
    static List<Subject> subjects(ScaleCurve curve, Workload workload, Projection projection) {
        return curve.subjects(workload, projection).stream()
                .filter(subject -> SUBJECTS.contains(subject) || subject == Subject.CONTROLLER_RUNTIME).toList();
    }

    /** The class data measured: both JDK 17 variants, and both JDK 25 ones if {@code newerJdk}. */
    static List<ClassData> variants(boolean newerJdk) {
        return newerJdk ? List.of(ClassData.values()) : List.of(ClassData.NONE, ClassData.CDS);
    }

    static String section(ScaleCurve curve, Path kubeconfig, Path work) throws Exception {
        long started = System.nanoTime();
        Jdk suiteJdk = Jdk.current();
        Optional<Jdk> newerJdk = Jdk.newer(StartupTime.AOT_CACHE_JDK, System.getenv());
        if (newerJdk.isEmpty()) {
            log.warn("cold sync: no JDK {} or later (set {}), so no AOT cache", StartupTime.AOT_CACHE_JDK,
                    Jdk.NEWER_JDK_VARIABLE);
        }
        List<ClassData> variants = variants(newerJdk.isPresent());
        Path folder = Files.createDirectories(work.resolve("cold"));
        String classPath = JarredClassPath.of(System.getProperty("java.class.path"), folder.resolve("classpath"));
        ColdSyncReport report = new ColdSyncReport(curve, variants, suiteJdk.label(),
                newerJdk.map(Jdk::label).orElse("none"));
        Map<Key, Map<ClassData, Path>> archives = new LinkedHashMap<>();
        for (Workload.Kind kind : curve.kinds()) {
            for (Projection projection : Projection.values()) {
                for (Workload workload : curve.sizes(kind)) {
                    for (Subject subject : subjects(curve, workload, projection)) {
                        Key key = new Key(subject, projection, kind);
                        if (subject.controllerRuntime() || archives.containsKey(key)) {
                            continue;
                        }
                        Map<ClassData, Path> trained = new LinkedHashMap<>();
                        for (ClassData variant : variants) {
                            if (variant.archived()) {
                                Jdk jdk = variant.newerJdk() ? newerJdk.orElseThrow() : suiteJdk;
                                Path archive = folder.resolve(variant.archiveName(key.fileName())).toAbsolutePath();
                                report.addTraining(key, variant, train(key, variant, jdk, classPath, archive, kubeconfig));
                                trained.put(variant, archive);
                            }
                        }
                        archives.put(key, trained);
                    }
                }
            }
        }
        for (Workload workload : curve.workloads()) {
            for (int run = 0; run < workload.runs(); run++) {
                for (Projection projection : Projection.values()) {
                    for (Subject subject : subjects(curve, workload, projection)) {
                        if (subject.controllerRuntime()) {
                            String[] result = ControllerRuntimeRuns.informer(subject, projection, workload.kind(),
                                    workload.namespace(), kubeconfig);
                            check(result, subject, workload);
                            report.add(new ColdSyncReport.Case(workload, projection, subject, ClassData.NONE),
                                    Long.parseLong(result[0]));
                            continue;
                        }
                        Key key = new Key(subject, projection, workload.kind());
                        for (ClassData variant : variants) {
                            Jdk jdk = variant.newerJdk() ? newerJdk.orElseThrow() : suiteJdk;
                            List<String> options = variant.archived() ? variant.runOptions(archives.get(key).get(variant))
                                    : List.of();
                            String[] result = Forks.run(command(jdk, options, classPath, key, workload.namespace(),
                                    kubeconfig), "InformerRun " + key + " " + variant);
                            check(result, subject, workload);
                            report.add(new ColdSyncReport.Case(workload, projection, subject, variant),
                                    Long.parseLong(result[0]));
                            log.info("cold sync, {} {} {} {} {} run {}: {} ms", workload.objects(), workload.kind().resource(),
                                    projection.argument(), subject, variant, run + 1, result[0]);
                        }
                    }
                }
            }
        }
        return "### Cold sync with each subject's class-data archive\n\n" + report.markdown(
                Duration.ofNanos(System.nanoTime() - started));
    }

    private static void check(String[] result, Subject subject, Workload workload) {
        if (Integer.parseInt(result[2]) != workload.listed()) {
            throw new IllegalStateException(subject + " cached " + result[2] + " " + workload.kind().resource() + " in "
                    + workload.namespace() + ", not " + workload.listed());
        }
    }

    private static ColdSyncReport.Training train(Key key, ClassData variant, Jdk jdk, String classPath, Path archive,
            Path kubeconfig) throws IOException, InterruptedException {
        Files.deleteIfExists(archive);
        log.info("cold sync: training {} for {} on {}", variant, key, jdk.version());
        long started = System.nanoTime();
        Forks.run(command(jdk, variant.trainingOptions(archive), classPath, key, Dataset.BASELINE, kubeconfig),
                "training " + variant + " " + key);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        if (!Files.isRegularFile(archive)) {
            throw new IllegalStateException("the training run for " + key + " on " + jdk.label() + " wrote no " + archive);
        }
        return new ColdSyncReport.Training(took, Files.size(archive));
    }

    /** {@link InformerRun} for {@code key} over {@code namespace} on {@code jdk}, with the scale curve's heap options. */
    static List<String> command(Jdk jdk, List<String> options, String classPath, Key key, String namespace,
            Path kubeconfig) {
        List<String> command = new ArrayList<>(List.of(jdk.java().toString(), "-Xmx2g", "-XX:+UseG1GC"));
        command.addAll(options);
        command.addAll(List.of("-cp", classPath, InformerRun.class.getName(), key.subject().name(),
                key.projection().argument(), key.kind().resource(), namespace, kubeconfig.toString()));
        return command;
    }
}

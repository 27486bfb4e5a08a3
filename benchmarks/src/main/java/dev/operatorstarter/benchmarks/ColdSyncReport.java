package dev.operatorstarter.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@link ColdSync}'s tables, from the runs' times to synced: per workload and subject the median
 * (min–max) with each class-data variant, controller-runtime's beside them and ours with the AOT
 * cache ÷ controller-runtime; what each training took and wrote; and the goal read at each size.
 * Pure: the suite feeds it what the forked JVMs printed, tests feed it made-up figures.
 */
final class ColdSyncReport {

    /** Goal: ours' cold sync with JDK 25's AOT cache at most this many times controller-runtime's. */
    static final double CONTROLLER_RUNTIME_GOAL = 5;

    /** One subject's informer over one workload with one class-data variant (controller-runtime: {@link ClassData#NONE}). */
    record Case(Workload workload, Projection projection, Subject subject, ClassData classData) {
    }

    /** One training run: how long it took, how large the archive it wrote is. */
    record Training(Duration took, long archiveBytes) {
    }

    private final ScaleCurve curve;
    private final List<ClassData> variants;
    private final String jdk;
    private final String newerJdk;
    private final Map<Case, List<Long>> millis = new LinkedHashMap<>();
    private final Map<ColdSync.Key, Map<ClassData, Training>> trainings = new LinkedHashMap<>();

    ColdSyncReport(ScaleCurve curve, List<ClassData> variants, String jdk, String newerJdk) {
        this.curve = curve;
        this.variants = List.copyOf(variants);
        this.jdk = jdk;
        this.newerJdk = newerJdk;
    }

    void add(Case measured, long syncMillis) {
        millis.computeIfAbsent(measured, key -> new ArrayList<>()).add(syncMillis);
    }

    void addTraining(ColdSync.Key key, ClassData variant, Training training) {
        trainings.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(variant, training);
    }

    /** The median time to synced in ms, if measured. */
    OptionalDouble median(Case measured) {
        List<Long> runs = millis.get(measured);
        return runs == null || runs.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(Stats.of(runs).median());
    }

    /** Ours with the AOT cache (or the best variant measured, if there is none) ÷ controller-runtime, medians. */
    OptionalDouble controllerRuntimeRatio(Workload workload, Projection projection) {
        OptionalDouble ours = median(new Case(workload, projection, Subject.OURS, best()));
        OptionalDouble controllerRuntime = median(new Case(workload, projection, Subject.CONTROLLER_RUNTIME, ClassData.NONE));
        return ours.isEmpty() || controllerRuntime.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(ours.getAsDouble() / controllerRuntime.getAsDouble());
    }

    /** The variant the goal is read on: the AOT cache if measured, else the AppCDS archive. */
    private ClassData best() {
        return variants.contains(ClassData.AOT_CACHE) ? ClassData.AOT_CACHE : ClassData.CDS;
    }

    String markdown(Duration took) {
        StringBuilder out = new StringBuilder();
        out.append("Time to synced, from before the client is made in a fresh JVM (the JVM's start not counted), each "
                + "Java subject on ").append(jdk).append(" and ").append(newerJdk).append(", without and with an archive of "
                + "its own classes: a JDK 17 AppCDS archive (`-XX:ArchiveClassesAtExit`, then `-XX:SharedArchiveFile` "
                + "with `-Xshare:on`) and JDK 25's AOT cache (`-XX:AOTCacheOutput`, then `-XX:AOTCache` with "
                + "`-XX:AOTMode=on`), each written by one training run of the same subject, kind and projection on the "
                + "baseline namespace (one object of the kind), as an image's build would write it. Forked JVMs "
                + "`-Xmx2g -XX:+UseG1GC`; controller-runtime ").append(ControllerRuntime.version())
                .append(" as in the scale curve (its strip transform). Median, (min–max) of the runs, variants and "
                        + "subjects interleaved run by run. Measuring took ")
                .append(took.toSeconds()).append(" s.\n\n");
        out.append("| objects | subject |");
        variants.forEach(variant -> out.append(' ').append(variant.label()).append(" |"));
        out.append(" controller-runtime | ").append(best().label()).append(" ÷ controller-runtime |\n|---|---|")
                .append("---|".repeat(variants.size() + 2)).append('\n');
        for (Workload.Kind kind : curve.kinds()) {
            for (Projection projection : Projection.values()) {
                for (Workload workload : curve.sizes(kind)) {
                    OptionalDouble controllerRuntime = median(new Case(workload, projection, Subject.CONTROLLER_RUNTIME,
                            ClassData.NONE));
                    for (Subject subject : ColdSync.SUBJECTS) {
                        if (!millis.containsKey(new Case(workload, projection, subject, ClassData.NONE))) {
                            continue;
                        }
                        out.append("| ").append(objects(workload, projection)).append(" | ").append(subject.label()).append(" |");
                        for (ClassData variant : variants) {
                            out.append(' ').append(cell(new Case(workload, projection, subject, variant))).append(" |");
                        }
                        OptionalDouble ours = median(new Case(workload, projection, subject, best()));
                        out.append(' ').append(controllerRuntime.isPresent() ? String.format("%,.0f ms",
                                controllerRuntime.getAsDouble()) : "–").append(" | ")
                                .append(ours.isPresent() && controllerRuntime.isPresent() ? String.format(
                                        subject == Subject.OURS ? "**%.1fx**" : "%.1fx",
                                        ours.getAsDouble() / controllerRuntime.getAsDouble()) : "–").append(" |\n");
                    }
                }
            }
        }
        out.append('\n').append(trainingTable()).append(goal());
        return out.toString();
    }

    private String cell(Case measured) {
        List<Long> runs = millis.get(measured);
        if (runs == null || runs.isEmpty()) {
            return "–";
        }
        Stats stats = Stats.of(runs);
        return runs.size() == 1 ? String.format("%,.0f ms", stats.median())
                : String.format("%,.0f ms (%,.0f–%,.0f)", stats.median(), stats.min(), stats.max());
    }

    private String trainingTable() {
        if (trainings.isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder("Training runs: seconds, and the archive's size.\n\n| subject | informer |");
        List<ClassData> archived = variants.stream().filter(ClassData::archived).toList();
        archived.forEach(variant -> table.append(' ').append(variant.label()).append(" |"));
        table.append("\n|---|---|").append("---|".repeat(archived.size())).append('\n');
        trainings.forEach((key, byVariant) -> {
            table.append("| ").append(key.subject().label()).append(" | ").append(key.kind().title())
                    .append(key.projection() == Projection.METADATA_ONLY ? ", metadata only" : "").append(" |");
            for (ClassData variant : archived) {
                Training training = byVariant.get(variant);
                table.append(' ').append(training == null ? "–" : String.format("%.1f s, %.0f MiB",
                        training.took().toMillis() / 1000.0, training.archiveBytes() / (double) (1 << 20))).append(" |");
            }
            table.append('\n');
        });
        return table.append('\n').toString();
    }

    private String goal() {
        List<String> figures = new ArrayList<>();
        List<Boolean> met = new ArrayList<>();
        for (Workload.Kind kind : curve.kinds()) {
            for (Projection projection : Projection.values()) {
                for (Workload workload : curve.sizes(kind)) {
                    OptionalDouble ratio = controllerRuntimeRatio(workload, projection);
                    if (ratio.isPresent()) {
                        figures.add(String.format("%s: **%.1fx**", objects(workload, projection), ratio.getAsDouble()));
                        met.add(ratio.getAsDouble() <= CONTROLLER_RUNTIME_GOAL);
                    }
                }
            }
        }
        return figures.isEmpty() ? "" : String.format("- Cold sync, ours with the %s ÷ controller-runtime (goal ≤ %.0fx): "
                + "%s; %s.%n", best() == ClassData.AOT_CACHE ? "AOT cache" : "AppCDS archive", CONTROLLER_RUNTIME_GOAL,
                String.join(", ", figures), InformerReport.verdict(met));
    }

    private static String objects(Workload workload, Projection projection) {
        return String.format("%,d %s%s", workload.listed(), workload.kind().title(),
                projection == Projection.METADATA_ONLY ? ", metadata only" : "");
    }
}

package dev.operatorstarter.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The informer section's tables, read from the runs' results: bytes and sync time per object at
 * each size of the scale curve, ours beside the peers with the ratio; every run's min / median /
 * max; each subject's fixed cost; and the memory goals read at each size. Pure: the suite feeds
 * it what the forked JVMs printed, tests feed it made-up figures.
 *
 * <p>The cache alone is a subject's median retained heap on a workload minus its median on the
 * baseline namespace, which holds one object of the kind (same kind, same projection): what the
 * other objects cost, without the client's threads, buffers and library caches. Per object divides
 * it by those objects ({@link Workload#beyondBaseline()}). The marginal cost per object, the
 * difference between two sizes' median retained heaps over the difference in objects, needs no
 * baseline at all: where the two disagree, something retained grows with the data but not per
 * object (a buffer pool, a table sized to the largest page).
 */
final class InformerReport {

    /**
     * What one forked JVM measured.
     *
     * @param warmSyncMillis a second informer's time to synced in the same JVM; negative if not measured
     * @param rssBytes the process's resident set size once synced, after the GC; negative if not measured
     */
    record Sample(long syncMillis, long retainedBytes, long warmSyncMillis, long rssBytes) {
        Sample(long syncMillis, long retainedBytes, long warmSyncMillis) {
            this(syncMillis, retainedBytes, warmSyncMillis, -1);
        }

        Sample(long syncMillis, long retainedBytes) {
            this(syncMillis, retainedBytes, -1);
        }
    }

    /** One subject's informer over one workload. */
    record Case(Workload workload, Projection projection, Subject subject) {
    }

    /** One subject's informer of one kind over the baseline namespace. */
    record Baseline(Workload.Kind kind, Projection projection, Subject subject) {
    }

    /** Goal: our full Pods at most this share of the official client's bytes per object. */
    static final double POD_GOAL_RATIO = 0.6;
    /** Goal: our ConfigMaps with ~1 KiB of data at most this many bytes per object. */
    static final double CONFIGMAP_GOAL_BYTES = 2_000;
    /** Goal: metadata only, of any kind, at most this many bytes per object. */
    static final double METADATA_GOAL_BYTES = 1_000;

    /** Goal: ours at most controller-runtime's (strip transform) cache bytes per object. */
    static final double CONTROLLER_RUNTIME_BYTES_GOAL = 1;
    /** Goal: a warm sync of ours at most this many times controller-runtime's. */
    static final double CONTROLLER_RUNTIME_WARM_SYNC_GOAL = 2;

    private final ScaleCurve curve;
    private final Map<Case, List<Sample>> samples = new LinkedHashMap<>();
    private final Map<Baseline, List<Long>> baselines = new LinkedHashMap<>();
    private final Map<Baseline, List<Long>> baselineRss = new LinkedHashMap<>();

    InformerReport(ScaleCurve curve) {
        this.curve = curve;
    }

    void add(Case measured, Sample sample) {
        samples.computeIfAbsent(measured, key -> new ArrayList<>()).add(sample);
    }

    void addBaseline(Baseline measured, long retainedBytes) {
        addBaseline(measured, retainedBytes, -1);
    }

    /** A baseline run with its resident set size once synced (negative: not measured). */
    void addBaseline(Baseline measured, long retainedBytes, long rssBytes) {
        baselines.computeIfAbsent(measured, key -> new ArrayList<>()).add(retainedBytes);
        baselineRss.computeIfAbsent(measured, key -> new ArrayList<>()).add(rssBytes);
    }

    /** min / median / max resident set size in MiB, or a dash when a run did not measure it. */
    private static String rssCell(List<Long> rss) {
        return rss.isEmpty() || rss.stream().anyMatch(bytes -> bytes < 0) ? "–" : Stats.of(rss).format("MiB", 1 << 20);
    }

    /** The median time to synced in ms, if measured. */
    OptionalDouble syncMillis(Case measured) {
        return median(measured, Sample::syncMillis);
    }

    /** The median time a second informer took to sync in the same JVM, in ms, if measured. */
    OptionalDouble warmSyncMillis(Case measured) {
        List<Sample> runs = samples.get(measured);
        if (runs == null || runs.stream().anyMatch(sample -> sample.warmSyncMillis() < 0)) {
            return OptionalDouble.empty();
        }
        return median(measured, Sample::warmSyncMillis);
    }

    /** The cache alone in bytes (median retained heap minus the median on the baseline namespace), if both were measured. */
    OptionalDouble cacheBytes(Case measured) {
        OptionalDouble retained = median(measured, Sample::retainedBytes);
        List<Long> fixed = baselines.get(new Baseline(measured.workload().kind(), measured.projection(), measured.subject()));
        if (retained.isEmpty() || fixed == null) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(retained.getAsDouble() - Stats.of(fixed).median());
    }

    /** The cache alone per object beyond the baseline's, if measured. */
    OptionalDouble bytesPerObject(Case measured) {
        OptionalDouble cache = cacheBytes(measured);
        int objects = measured.workload().beyondBaseline();
        return cache.isEmpty() || objects == 0 ? OptionalDouble.empty() : OptionalDouble.of(cache.getAsDouble() / objects);
    }

    /**
     * What each object added between the next smaller size of the same kind and this one: the
     * difference of the median retained heaps over the difference of the objects listed; empty at
     * the smallest size.
     */
    OptionalDouble marginalBytesPerObject(Case measured) {
        List<Workload> sizes = curve.sizes(measured.workload().kind());
        int index = sizes.indexOf(measured.workload());
        if (index < 1) {
            return OptionalDouble.empty();
        }
        Workload smaller = sizes.get(index - 1);
        OptionalDouble large = median(measured, Sample::retainedBytes);
        OptionalDouble small = median(new Case(smaller, measured.projection(), measured.subject()), Sample::retainedBytes);
        if (large.isEmpty() || small.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((large.getAsDouble() - small.getAsDouble()) / (measured.workload().listed() - smaller.listed()));
    }

    /** Ours ÷ the smaller of the peers measured, marginal bytes per object. */
    OptionalDouble marginalBytesRatio(Workload workload, Projection projection) {
        return ratio(workload, projection, this::marginalBytesPerObject);
    }

    /** Ours ÷ the smaller of the peers measured, bytes per object. */
    OptionalDouble bytesRatio(Workload workload, Projection projection) {
        return ratio(workload, projection, this::bytesPerObject);
    }

    /** Ours ÷ the faster of the peers measured, time to synced. */
    OptionalDouble timeRatio(Workload workload, Projection projection) {
        return ratio(workload, projection, this::syncMillis);
    }

    /** Ours ÷ the faster of the peers measured, time to synced again in the same JVM. */
    OptionalDouble warmTimeRatio(Workload workload, Projection projection) {
        return ratio(workload, projection, this::warmSyncMillis);
    }

    /** Ours ÷ controller-runtime with its strip transform, by {@code figure}. */
    OptionalDouble controllerRuntimeRatio(Workload workload, Projection projection, Function<Case, OptionalDouble> figure) {
        return ratio(workload, projection, figure, List.of(Subject.CONTROLLER_RUNTIME));
    }

    private OptionalDouble ratio(Workload workload, Projection projection, Function<Case, OptionalDouble> figure) {
        return ratio(workload, projection, figure, peers(projection));
    }

    private OptionalDouble ratio(Workload workload, Projection projection, Function<Case, OptionalDouble> figure,
            List<Subject> peers) {
        OptionalDouble ours = figure.apply(new Case(workload, projection, Subject.OURS));
        OptionalDouble peer = peers.stream().map(subject -> figure.apply(new Case(workload, projection, subject)))
                .filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).min();
        return ours.isEmpty() || peer.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(ours.getAsDouble() / peer.getAsDouble());
    }

    private static List<Subject> peers(Projection projection) {
        return projection == Projection.FULL_OBJECTS ? List.of(Subject.FABRIC8, Subject.OFFICIAL) : List.of(Subject.OFFICIAL);
    }

    private OptionalDouble median(Case measured, ToDoubleFunction<Sample> figure) {
        List<Sample> runs = samples.get(measured);
        if (runs == null || runs.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Stats.of(runs.stream().map(figure::applyAsDouble).toList()).median());
    }

    /** The section in Markdown: headings from level 4 down, for under the suite's level-3 heading. */
    String markdown() {
        StringBuilder out = new StringBuilder();
        out.append(perObjectTable("Cache bytes per object",
                "The cache alone ÷ its objects (medians; the baseline namespace's one object of the kind counts "
                        + "in neither). A dash: not measured at that size; none: fabric8 8.0.0 has no metadata-only "
                        + "informer. controller-runtime's retained heap is Go's HeapAlloc after runtime.GC(), minus "
                        + "the same before its cache was made; the last column is ours ÷ controller-runtime with its "
                        + "strip-managed-fields transform.",
                "ours ÷ the smaller peer", measured -> bytesCell(bytesPerObject(measured)), this::bytesRatio,
                this::bytesPerObject));
        out.append(perObjectTable("Marginal bytes per object",
                "What each object added from the next smaller size to this one: the difference of the median "
                        + "retained heaps ÷ the difference in objects listed. No baseline involved.",
                "ours ÷ the smaller peer", measured -> bytesCell(marginalBytesPerObject(measured)),
                this::marginalBytesRatio, this::marginalBytesPerObject));
        out.append(perObjectTable("Time to synced per object",
                "Median time to synced ÷ the objects listed, with the median itself in brackets. It counts "
                        + "from before the client is made in a fresh JVM, so class loading weighs on the small sizes.",
                "ours ÷ the faster peer", this::timeCell, this::timeRatio, this::syncMillis));
        out.append(perObjectTable("Time to synced again, warm",
                "A second informer, with a client of its own, over the same namespace in the same JVM once the first "
                        + "has synced and been measured: its classes loaded and its code compiled, as a running "
                        + "operator's relist finds them. Median ÷ the objects listed, the median in brackets.",
                "ours ÷ the faster peer", measured -> timeCell(measured, warmSyncMillis(measured)), this::warmTimeRatio,
                this::warmSyncMillis));
        out.append(everyRun());
        out.append(fixedCosts());
        out.append(goals());
        return out.toString();
    }

    private String perObjectTable(String title, String intro, String ratioTitle, Function<Case, String> cell,
            BiFunction<Workload, Projection, OptionalDouble> ratio, Function<Case, OptionalDouble> figure) {
        StringBuilder table = new StringBuilder("#### " + title + "\n\n" + intro + "\n\n| objects |");
        for (Subject subject : Subject.values()) {
            table.append(' ').append(subject.label()).append(" |");
        }
        table.append(' ').append(ratioTitle).append(" | ours ÷ controller-runtime |\n|---|");
        table.append("---|".repeat(Subject.values().length + 2)).append('\n');
        for (Workload.Kind kind : curve.kinds()) {
            for (Projection projection : Projection.values()) {
                for (Workload workload : curve.sizes(kind)) {
                    table.append("| ").append(objects(workload, projection)).append(" |");
                    for (Subject subject : Subject.values()) {
                        Case measured = new Case(workload, projection, subject);
                        table.append(' ').append(noInformer(measured) ? "none" : cell.apply(measured)).append(" |");
                    }
                    OptionalDouble value = ratio.apply(workload, projection);
                    OptionalDouble controllerRuntime = controllerRuntimeRatio(workload, projection, figure);
                    table.append(' ').append(value.isPresent() ? String.format("**%.2fx**", value.getAsDouble()) : "–")
                            .append(" | ").append(controllerRuntime.isPresent()
                                    ? String.format("**%.2fx**", controllerRuntime.getAsDouble()) : "–").append(" |\n");
                }
            }
        }
        return table.append('\n').toString();
    }

    /** Fabric8 8.0.0 has no metadata-only informer: its cells say "none" rather than "not measured". */
    private static boolean noInformer(Case measured) {
        return measured.projection() == Projection.METADATA_ONLY && measured.subject() == Subject.FABRIC8;
    }

    private static String bytesCell(OptionalDouble bytes) {
        return bytes.isPresent() ? String.format("%,.0f B", bytes.getAsDouble()) : "–";
    }

    private String timeCell(Case measured) {
        return timeCell(measured, syncMillis(measured));
    }

    private static String timeCell(Case measured, OptionalDouble millis) {
        return millis.isPresent() ? String.format("%,.0f µs (%,.0f ms)", millis.getAsDouble() * 1000 / measured.workload()
                .listed(), millis.getAsDouble()) : "–";
    }

    private String everyRun() {
        StringBuilder table = new StringBuilder("#### Every run\n\nmin / median / max of the runs, each in a fresh JVM "
                + "(the cache alone and per object from the medians).\n\n"
                + "| objects | subject | runs | time to synced | retained heap | cache alone | per object | RSS once synced |\n"
                + "|---|---|---|---|---|---|---|---|\n");
        samples.forEach((measured, runs) -> {
            Stats time = Stats.of(runs.stream().map(Sample::syncMillis).toList());
            Stats heap = Stats.of(runs.stream().map(Sample::retainedBytes).toList());
            OptionalDouble cache = cacheBytes(measured);
            table.append("| ").append(objects(measured.workload(), measured.projection())).append(" | ")
                    .append(measured.subject().label()).append(" | ").append(runs.size()).append(" | ")
                    .append(time.format("ms", 1)).append(" | ").append(heap.format("MiB", 1 << 20)).append(" | ")
                    .append(cache.isPresent() ? String.format("%.1f MiB", cache.getAsDouble() / (1 << 20)) : "–")
                    .append(" | ").append(bytesCell(bytesPerObject(measured))).append(" | ")
                    .append(rssCell(runs.stream().map(Sample::rssBytes).toList())).append(" |\n");
        });
        return table.append('\n').toString();
    }

    private String fixedCosts() {
        StringBuilder table = new StringBuilder("#### Fixed cost\n\nEach subject's retained heap with its informer "
                + "synced on the baseline namespace, which holds one object of the kind (min / median / max): "
                + "subtracted from the figures above to get the cache alone; beside it the process's resident set size "
                + "(VmRSS) after the same GC: heap, the rest of the JVM (or Go runtime) and whatever memory outside "
                + "the heap the client holds.\n\n"
                + "| informer | subject | runs | retained heap | RSS once synced |\n|---|---|---|---|---|\n");
        baselines.forEach((measured, runs) -> table.append("| ").append(measured.kind().title())
                .append(measured.projection() == Projection.METADATA_ONLY ? ", metadata only" : "").append(" | ")
                .append(measured.subject().label()).append(" | ").append(runs.size()).append(" | ")
                .append(Stats.of(runs).format("MiB", 1 << 20)).append(" | ")
                .append(rssCell(baselineRss.getOrDefault(measured, List.of()))).append(" |\n"));
        return table.append('\n').toString();
    }

    private String goals() {
        StringBuilder out = new StringBuilder("#### Against the memory goals\n\nRead on the cache alone per object "
                + "at each size; the marginal figure from the next smaller size in brackets.\n\n");
        List<String> podRatios = new ArrayList<>();
        List<Boolean> podMet = new ArrayList<>();
        for (Workload workload : curve.sizes(Workload.Kind.PODS)) {
            OptionalDouble ours = bytesPerObject(new Case(workload, Projection.FULL_OBJECTS, Subject.OURS));
            OptionalDouble official = bytesPerObject(new Case(workload, Projection.FULL_OBJECTS, Subject.OFFICIAL));
            if (ours.isPresent() && official.isPresent()) {
                double ratio = ours.getAsDouble() / official.getAsDouble();
                OptionalDouble marginalOurs = marginalBytesPerObject(new Case(workload, Projection.FULL_OBJECTS, Subject.OURS));
                OptionalDouble marginalOfficial = marginalBytesPerObject(new Case(workload, Projection.FULL_OBJECTS,
                        Subject.OFFICIAL));
                podRatios.add(String.format("%,d: **%.2fx**", workload.listed(), ratio)
                        + (marginalOurs.isPresent() && marginalOfficial.isPresent()
                                ? String.format(" (%.2fx)", marginalOurs.getAsDouble() / marginalOfficial.getAsDouble())
                                : ""));
                podMet.add(ratio <= POD_GOAL_RATIO);
            }
        }
        if (!podRatios.isEmpty()) {
            out.append(String.format("- Full Pods, ours ÷ the official client's bytes per object (goal ≤ %.1fx): %s; %s.%n",
                    POD_GOAL_RATIO, String.join(", ", podRatios), verdict(podMet)));
        }
        out.append(bytesGoal("ConfigMaps with ~1 KiB of data, ours per object", CONFIGMAP_GOAL_BYTES,
                List.of(Workload.Kind.CONFIGMAPS), Projection.FULL_OBJECTS));
        out.append(bytesGoal("Metadata only, ours per object", METADATA_GOAL_BYTES, curve.kinds(), Projection.METADATA_ONLY));
        out.append(controllerRuntimeGoal("Cache bytes per object, ours ÷ controller-runtime with its strip transform",
                CONTROLLER_RUNTIME_BYTES_GOAL, this::bytesPerObject));
        out.append(controllerRuntimeGoal("Warm sync, ours ÷ controller-runtime", CONTROLLER_RUNTIME_WARM_SYNC_GOAL,
                this::warmSyncMillis));
        return out.append('\n').toString();
    }

    private String controllerRuntimeGoal(String what, double goal, Function<Case, OptionalDouble> figure) {
        List<String> figures = new ArrayList<>();
        List<Boolean> met = new ArrayList<>();
        for (Workload.Kind kind : curve.kinds()) {
            for (Projection projection : Projection.values()) {
                for (Workload workload : curve.sizes(kind)) {
                    OptionalDouble ratio = controllerRuntimeRatio(workload, projection, figure);
                    if (ratio.isPresent()) {
                        figures.add(String.format("%s: **%.2fx**", objects(workload, projection), ratio.getAsDouble()));
                        met.add(ratio.getAsDouble() <= goal);
                    }
                }
            }
        }
        return figures.isEmpty() ? "" : String.format("- %s (goal ≤ %.0fx): %s; %s.%n", what, goal,
                String.join(", ", figures), verdict(met));
    }

    private String bytesGoal(String what, double goal, List<Workload.Kind> kinds, Projection projection) {
        List<String> figures = new ArrayList<>();
        List<Boolean> met = new ArrayList<>();
        for (Workload.Kind kind : kinds) {
            for (Workload workload : curve.sizes(kind)) {
                Case ours = new Case(workload, projection, Subject.OURS);
                OptionalDouble bytes = bytesPerObject(ours);
                OptionalDouble marginal = marginalBytesPerObject(ours);
                if (bytes.isPresent()) {
                    figures.add(String.format("%,d %s: **%,.0f B**", workload.listed(), kind.title(), bytes.getAsDouble())
                            + (marginal.isPresent() ? String.format(" (%,.0f B)", marginal.getAsDouble()) : ""));
                    met.add(bytes.getAsDouble() <= goal);
                }
            }
        }
        return figures.isEmpty() ? "" : String.format("- %s (goal ≤ %,.0f B): %s; %s.%n", what, goal,
                String.join(", ", figures), verdict(met));
    }

    /** "met at every size", "not met at any size" or "met at 2 of 3 sizes". */
    static String verdict(List<Boolean> met) {
        long count = met.stream().filter(Boolean::booleanValue).count();
        if (count == met.size()) {
            return "met at every size";
        }
        return count == 0 ? "not met at any size" : String.format("met at %d of %d sizes", count, met.size());
    }

    private static String objects(Workload workload, Projection projection) {
        return String.format("%,d %s%s", workload.listed(), workload.kind().title(),
                projection == Projection.METADATA_ONLY ? ", metadata only" : "");
    }
}

package dev.operatorstarter.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The informer benchmarks' scale curve: which workloads (sizes of each kind) are measured, and with
 * which subjects.
 *
 * <ul>
 *   <li>Full objects: ours with the default transform, fabric8 and the official client at every
 *       size; ours without a transform only at the lower median size of each kind (what the
 *       transform saves hardly depends on the count, and running it everywhere would add a fifth
 *       to the run).
 *   <li>Metadata only: ours, and the official client's equivalent assembled from its parts
 *       ({@link OfficialMetadataInformer}). fabric8 8.0.0 has no metadata-only informer or watch
 *       (only a list or get as {@code PartialObjectMetadata}), so it has no entry.
 *   <li>controller-runtime ({@link ControllerRuntime}), full and metadata only, with its
 *       strip-managed-fields transform at every size and without a transform where ours runs without one.
 * </ul>
 *
 * @param workloads the sizes, ConfigMaps first, each kind from small to large; not empty
 * @param baselineRuns runs of each subject on the baseline namespace ({@link Dataset#BASELINE}: its
 *     fixed cost, subtracted to get the cache's), at least 1
 */
record ScaleCurve(List<Workload> workloads, int baselineRuns) {

    /** Runs per subject at each size of the full run. */
    static final int RUNS = 5;
    /**
     * Runs per subject at the largest size of each kind in the full run (those take longest and
     * vary least), and on the baseline namespace (whose figures vary by a few KiB).
     */
    static final int LARGEST_RUNS = 3;
    /** The full run: 1k, 10k, 50k ConfigMaps and 2k, 10k Pods. */
    static final ScaleCurve FULL = of(List.of(1_000, 10_000, 50_000), List.of(2_000, 10_000), RUNS, LARGEST_RUNS);
    /** Runs per subject at every size of {@code -quick}, and on the baseline namespace. */
    static final int QUICK_RUNS = 1;
    /** {@code -quick}: the same steps, small. */
    static final ScaleCurve QUICK = of(List.of(500, 2_000), List.of(300), QUICK_RUNS, QUICK_RUNS);

    ScaleCurve {
        workloads = List.copyOf(workloads);
        if (workloads.isEmpty()) {
            throw new IllegalArgumentException("workloads must not be empty");
        }
        if (baselineRuns < 1) {
            throw new IllegalArgumentException("baselineRuns must be at least 1, was " + baselineRuns);
        }
    }

    /**
     * A curve of these sizes: each measured {@code runs} times, the largest of each kind and the
     * baseline {@code largestRuns} times.
     */
    static ScaleCurve of(List<Integer> configMaps, List<Integer> pods, int runs, int largestRuns) {
        List<Workload> workloads = new ArrayList<>();
        add(workloads, Workload.Kind.CONFIGMAPS, configMaps, runs, largestRuns);
        add(workloads, Workload.Kind.PODS, pods, runs, largestRuns);
        return new ScaleCurve(workloads, largestRuns);
    }

    private static void add(List<Workload> workloads, Workload.Kind kind, List<Integer> sizes, int runs, int largestRuns) {
        TreeSet<Integer> sorted = new TreeSet<>(sizes);
        if (sorted.size() != sizes.size()) {
            throw new IllegalArgumentException(kind.resource() + ": each size once, was " + sizes);
        }
        for (int size : sorted) {
            workloads.add(new Workload(kind, size, size == sorted.last() ? largestRuns : runs));
        }
    }

    /** The workloads of {@code kind}, from small to large. */
    List<Workload> sizes(Workload.Kind kind) {
        return workloads.stream().filter(workload -> workload.kind() == kind).toList();
    }

    /** The kinds measured, ConfigMaps first. */
    List<Workload.Kind> kinds() {
        return workloads.stream().map(Workload::kind).distinct().toList();
    }

    /** The subjects measured on {@code workload} for {@code projection}, in the order the reports list them. */
    List<Subject> subjects(Workload workload, Projection projection) {
        List<Workload> sizes = sizes(workload.kind());
        boolean withoutTransform = sizes.get((sizes.size() - 1) / 2).equals(workload);
        if (projection == Projection.METADATA_ONLY) {
            return withoutTransform ? List.of(Subject.OURS, Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME,
                    Subject.CONTROLLER_RUNTIME_NO_TRANSFORM) : List.of(Subject.OURS, Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME);
        }
        return withoutTransform ? List.of(Subject.OURS, Subject.OURS_NO_TRANSFORM, Subject.FABRIC8, Subject.OFFICIAL,
                Subject.CONTROLLER_RUNTIME, Subject.CONTROLLER_RUNTIME_NO_TRANSFORM)
                : List.of(Subject.OURS, Subject.FABRIC8, Subject.OFFICIAL, Subject.CONTROLLER_RUNTIME);
    }

    /** Every subject measured with {@code projection} at some size of {@code kind}: those that need a baseline. */
    List<Subject> subjects(Workload.Kind kind, Projection projection) {
        return sizes(kind).stream().flatMap(workload -> subjects(workload, projection).stream()).distinct().sorted().toList();
    }

    /** How many forked JVMs the curve takes, baselines included: for a time estimate in the log. */
    int forks() {
        int forks = 0;
        for (Workload workload : workloads) {
            for (Projection projection : Projection.values()) {
                forks += workload.runs() * subjects(workload, projection).size();
            }
        }
        for (Workload.Kind kind : kinds()) {
            for (Projection projection : Projection.values()) {
                forks += baselineRuns * subjects(kind, projection).size();
            }
        }
        return forks;
    }
}

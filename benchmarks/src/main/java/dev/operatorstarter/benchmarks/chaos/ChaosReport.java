package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The figures of a chaos run, as Markdown: one table per scenario, one row per subject. Times are
 * median / max over the trials; a trial with no event after the fault within the recovery timeout
 * counts as the timeout, and the row says how many did; convergence times are over the trials
 * that converged, and the row says how many did not. A subject left out of a scenario's last
 * trials (after failing several in a row) shows fewer trials, and says so.
 */
final class ChaosReport {

    private final Map<String, List<TrialResult>> results = new LinkedHashMap<>();
    private final Map<String, String> descriptions = new LinkedHashMap<>();
    private final Map<String, Set<Subject>> leftOut = new LinkedHashMap<>();
    private final Duration recoveryTimeout;
    private final Duration convergeTimeout;

    ChaosReport(Duration recoveryTimeout, Duration convergeTimeout) {
        this.recoveryTimeout = recoveryTimeout;
        this.convergeTimeout = convergeTimeout;
    }

    synchronized void add(Scenario scenario, List<TrialResult> trials) {
        add(scenario, trials, Set.of());
    }

    /** As {@link #add(Scenario, List)}, where the {@code leftOut} subjects were left out of the last trials. */
    synchronized void add(Scenario scenario, List<TrialResult> trials, Set<Subject> leftOut) {
        descriptions.put(scenario.name(), scenario.description());
        this.leftOut.computeIfAbsent(scenario.name(), s -> new HashSet<>()).addAll(leftOut);
        results.computeIfAbsent(scenario.name(), s -> new ArrayList<>()).addAll(trials);
    }

    /** The tables, with a heading per scenario at level {@code ####}. */
    synchronized String markdown() {
        StringBuilder out = new StringBuilder();
        results.forEach((scenario, trials) -> {
            out.append("#### ").append(scenario).append("\n\n").append(descriptions.get(scenario)).append(".\n\n");
            out.append("| subject | trials | passed | first event after the fault (median / max) "
                    + "| converged after the churn stopped (median / max) | lists per trial (median / max) "
                    + "| requests faulted per trial (median / max) | tombstones |\n|---|---|---|---|---|---|---|---|\n");
            Map<Subject, List<TrialResult>> bySubject = new LinkedHashMap<>();
            trials.forEach(trial -> bySubject.computeIfAbsent(trial.subject(), s -> new ArrayList<>()).add(trial));
            bySubject.forEach((subject, rows) -> out.append(row(subject, rows,
                    leftOut.getOrDefault(scenario, Set.of()).contains(subject))));
            out.append('\n');
        });
        return out.toString();
    }

    private String row(Subject subject, List<TrialResult> rows, boolean leftOut) {
        long passed = rows.stream().filter(TrialResult::passed).count();
        List<Long> recoveries = new ArrayList<>();
        int timedOut = 0;
        for (TrialResult row : rows) {
            OptionalLong recovery = row.recoveryMillis();
            if (recovery.isPresent()) {
                recoveries.add(recovery.getAsLong());
            } else {
                recoveries.add(recoveryTimeout.toMillis());
                timedOut++;
            }
        }
        String recovery = seconds(recoveries) + (timedOut == 0 ? ""
                : " (" + timedOut + " with none within " + recoveryTimeout.toSeconds() + " s)");
        String trials = rows.size() + (leftOut
                ? " (then left out after " + InformerChaos.LEAVE_OUT_AFTER + " failures in a row)" : "");
        return "| " + label(subject) + " | " + trials + " | " + (passed == rows.size() ? passed : "**" + passed + "**")
                + " | " + recovery + " | " + converged(rows) + " | "
                + counts(rows.stream().map(TrialResult::lists).toList()) + " | "
                + counts(rows.stream().map(TrialResult::faulted).toList()) + " | "
                + rows.stream().mapToLong(TrialResult::tombstones).sum() + " |\n";
    }

    /** Over the trials that converged; how many did not, when some did not. */
    private String converged(List<TrialResult> rows) {
        List<Long> millis = rows.stream().map(TrialResult::convergeMillis).filter(OptionalLong::isPresent)
                .map(OptionalLong::getAsLong).toList();
        int never = rows.size() - millis.size();
        if (millis.isEmpty()) {
            return "never within " + convergeTimeout.toSeconds() + " s";
        }
        return seconds(millis) + (never == 0 ? "" : " (" + never + " never within " + convergeTimeout.toSeconds() + " s)");
    }

    private static String label(Subject subject) {
        return subject == Subject.OURS ? "ours" : subject.label();
    }

    /** "median / max" of milliseconds, in seconds. */
    static String seconds(List<Long> millis) {
        return String.format("%.2f / %.2f s", median(millis) / 1000.0, Collections.max(millis) / 1000.0);
    }

    private static String counts(List<Long> values) {
        double median = median(values);
        return (median == Math.rint(median) ? Long.toString((long) median) : String.format("%.1f", median)) + " / "
                + Collections.max(values);
    }

    static double median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }
}

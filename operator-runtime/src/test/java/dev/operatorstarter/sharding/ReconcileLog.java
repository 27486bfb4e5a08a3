package dev.operatorstarter.sharding;

import dev.operatorstarter.Overlaps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The reconciles of every {@link ShardProcess}, read back from their output files (one line
 * {@code <key> <start> <end>} per reconcile, wall-clock milliseconds), so that the reconciles of
 * one object by different processes can be compared. All processes run on one machine, so their
 * wall clocks agree (as {@code ActingLog}'s candidates do).
 */
final class ReconcileLog {

    /** Process {@code process} reconciled {@code key} from {@code start} to {@code end}. */
    record Reconcile(String process, String key, long start, long end) {
    }

    private final List<Reconcile> reconciles;

    private ReconcileLog(List<Reconcile> reconciles) {
        this.reconciles = reconciles;
    }

    /**
     * Reads every process's output ({@code process id -> file}); a missing file is an empty log, and
     * a line cut short (a process killed while writing it) is skipped.
     */
    static ReconcileLog read(Map<String, Path> outputs) {
        List<Reconcile> all = new ArrayList<>();
        outputs.forEach((process, output) -> {
            try {
                if (Files.exists(output)) {
                    for (String line : Files.readAllLines(output)) {
                        String[] fields = line.split(" ");
                        if (fields.length == 3 && !fields[2].isEmpty()) {
                            all.add(new Reconcile(process, fields[0], Long.parseLong(fields[1]),
                                    Long.parseLong(fields[2])));
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        return new ReconcileLog(List.copyOf(all));
    }

    List<Reconcile> reconciles() {
        return reconciles;
    }

    /** The keys {@code process} reconciled at least once. */
    Set<String> keysOf(String process) {
        return reconciles.stream().filter(r -> r.process().equals(process)).map(Reconcile::key)
                .collect(Collectors.toSet());
    }

    /** Per key, the start of its first reconcile by one of {@code processes} at or after {@code since}. */
    Map<String, Long> firstStarts(Collection<String> processes, long since) {
        return reconciles.stream().filter(r -> processes.contains(r.process()) && r.start() >= since)
                .collect(Collectors.toMap(Reconcile::key, Reconcile::start, Math::min));
    }

    /** The latest moment {@code process} recorded, of any key. */
    OptionalLong lastMoment(String process) {
        return reconciles.stream().filter(r -> r.process().equals(process)).mapToLong(Reconcile::end).max();
    }

    /** Every pair of reconciles of one object by two processes that share a moment. */
    List<Overlaps.Overlap> overlaps() {
        List<Overlaps.Overlap> overlaps = new ArrayList<>();
        reconciles.stream().collect(Collectors.groupingBy(Reconcile::key, Collectors.mapping(
                r -> new Overlaps.Interval(r.process(), r.start(), r.end()), Collectors.toList())))
                .forEach((key, intervals) -> overlaps.addAll(Overlaps.among(key, intervals)));
        return overlaps;
    }
}

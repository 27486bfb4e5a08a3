package dev.operatorstarter.leaderelection;

import dev.operatorstarter.Overlaps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The moments at which a {@link LeaderElectionProcess} acted as leader (one wall-clock millisecond
 * per line, every 10 ms while its term was valid), read back as intervals. All candidates run on
 * one machine, so their wall clocks agree.
 */
final class ActingLog {

    /** Moments further apart than this start a new interval. */
    private static final long GAP_MILLIS = 500;

    private ActingLog() {
    }

    static List<Long> moments(Path output) {
        try {
            if (!Files.exists(output)) {
                return List.of();
            }
            return Files.readAllLines(output).stream().filter(line -> !line.isBlank()).map(Long::parseLong).toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static long lastMoment(Path output) {
        List<Long> moments = moments(output);
        return moments.isEmpty() ? -1 : moments.get(moments.size() - 1);
    }

    static long firstMomentAfter(Path output, long time) {
        return moments(output).stream().filter(m -> m >= time).findFirst().orElseThrow();
    }

    /** Runs of moments less than 500 ms apart: the intervals in which {@code owner} acted. */
    static List<Overlaps.Interval> intervals(String owner, Path output) {
        List<Overlaps.Interval> intervals = new ArrayList<>();
        long start = -1;
        long last = -1;
        for (long moment : moments(output)) {
            if (start < 0 || moment - last > GAP_MILLIS) {
                if (start >= 0) {
                    intervals.add(new Overlaps.Interval(owner, start, last));
                }
                start = moment;
            }
            last = moment;
        }
        if (start >= 0) {
            intervals.add(new Overlaps.Interval(owner, start, last));
        }
        return intervals;
    }

    /** Every pair of intervals of different candidates that share a moment, within [from, to]. */
    static List<Overlaps.Overlap> overlaps(Map<String, Path> outputs, long from, long to) {
        List<Overlaps.Interval> all = new ArrayList<>();
        outputs.forEach((owner, output) -> intervals(owner, output).stream()
                .filter(i -> i.end() >= from && i.start() <= to).forEach(all::add));
        return Overlaps.among("the lease", all);
    }
}

package dev.operatorstarter.leaderelection;

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

    /** Runs of moments less than 500 ms apart: the intervals in which a process acted, as {start, end}. */
    static List<long[]> intervals(Path output) {
        List<long[]> intervals = new ArrayList<>();
        long start = -1;
        long last = -1;
        for (long moment : moments(output)) {
            if (start < 0 || moment - last > GAP_MILLIS) {
                if (start >= 0) {
                    intervals.add(new long[] {start, last});
                }
                start = moment;
            }
            last = moment;
        }
        if (start >= 0) {
            intervals.add(new long[] {start, last});
        }
        return intervals;
    }

    /** One overlap between two candidates' acting intervals. */
    record Overlap(String first, long[] firstInterval, String second, long[] secondInterval) {
        long millis() {
            return Math.min(firstInterval[1], secondInterval[1]) - Math.max(firstInterval[0], secondInterval[0]);
        }

        @Override
        public String toString() {
            return first + " acted " + firstInterval[0] + ".." + firstInterval[1] + " and " + second + " acted "
                    + secondInterval[0] + ".." + secondInterval[1];
        }
    }

    /** Every pair of intervals of different candidates that share a moment, within [from, to]. */
    static List<Overlap> overlaps(Map<String, Path> outputs, long from, long to) {
        List<String> owners = new ArrayList<>();
        List<long[]> all = new ArrayList<>();
        outputs.forEach((owner, output) -> intervals(output).stream().filter(i -> i[1] >= from && i[0] <= to)
                .forEach(interval -> {
                    owners.add(owner);
                    all.add(interval);
                }));
        List<Overlap> overlaps = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            for (int j = i + 1; j < all.size(); j++) {
                long[] x = all.get(i);
                long[] y = all.get(j);
                if (!owners.get(i).equals(owners.get(j)) && x[0] <= y[1] && y[0] <= x[1]) {
                    overlaps.add(new Overlap(owners.get(i), x, owners.get(j), y));
                }
            }
        }
        return overlaps;
    }
}

package dev.operatorstarter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The check behind every "never two at once" test: intervals in which someone acted (a leader's
 * acting moments, a replica's reconciles of one object), and the pairs of them, by two different
 * actors, that share a moment. Times are in any one unit and clock the intervals agree on.
 */
public final class Overlaps {

    private Overlaps() {
    }

    /** {@code by} acted from {@code start} to {@code end}, both included. */
    public record Interval(String by, long start, long end) {

        public Interval {
            if (end < start) {
                throw new IllegalArgumentException("an interval ends before it starts: " + start + ".." + end);
            }
        }
    }

    /** Two actors' intervals of one {@code subject} that share a moment. */
    public record Overlap(String subject, Interval first, Interval second) {

        /** How long both acted at once (0 when they share exactly one moment). */
        public long length() {
            return Math.min(first.end(), second.end()) - Math.max(first.start(), second.start());
        }

        @Override
        public String toString() {
            return subject + ": " + first.by() + " acted " + first.start() + ".." + first.end() + " and "
                    + second.by() + " acted " + second.start() + ".." + second.end();
        }
    }

    /** Every pair of {@code intervals} of {@code subject} by different actors that share a moment. */
    public static List<Overlap> among(String subject, Collection<Interval> intervals) {
        List<Interval> sorted = intervals.stream().sorted(Comparator.comparingLong(Interval::start)).toList();
        List<Overlap> overlaps = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i++) {
            Interval first = sorted.get(i);
            for (int j = i + 1; j < sorted.size() && sorted.get(j).start() <= first.end(); j++) {
                if (!sorted.get(j).by().equals(first.by())) {
                    overlaps.add(new Overlap(subject, first, sorted.get(j)));
                }
            }
        }
        return overlaps;
    }
}

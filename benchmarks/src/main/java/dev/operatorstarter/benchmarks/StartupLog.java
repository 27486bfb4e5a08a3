package dev.operatorstarter.benchmarks;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads the milestones of a start-up from the sample operator's console log, each with the time the
 * operator itself wrote on the line (Spring Boot's default console pattern starts every line with
 * an ISO-8601 timestamp with milliseconds and offset, {@code 2026-11-25T00:58:58.074Z}).
 *
 * <ul>
 *   <li>{@link Milestone#STARTED}: Spring Boot's {@code Started SampleOperatorApplication in 13.002
 *       seconds}: the context has refreshed and every lifecycle bean has started, so the informer
 *       caches have synced (they block start-up) and the web server answers probes.
 *   <li>{@link Milestone#FIRST_RECONCILE}: the sample reconciler's {@code <namespace>/<name>
 *       generation 1: ...}, logged during the first reconcile of that site, after its ConfigMap,
 *       Deployment and Service were applied and just before its status is written.
 * </ul>
 */
final class StartupLog {

    /** What a start-up passes through, in order. */
    enum Milestone {
        STARTED, FIRST_RECONCILE
    }

    /** A milestone and the time on its log line. */
    record Mark(Milestone milestone, Instant at) {
    }

    private static final Pattern STARTED = Pattern.compile(": Started \\S+ in [0-9.]+ seconds");

    private StartupLog() {
    }

    /**
     * The milestone {@code line} reports, if any.
     *
     * @param site the site whose first reconcile counts, {@code namespace/name}
     */
    static Optional<Mark> read(String line, String site) {
        int space = line.indexOf(' ');
        if (space <= 0) {
            return Optional.empty();
        }
        Instant at;
        try {
            at = OffsetDateTime.parse(line.substring(0, space)).toInstant();
        } catch (DateTimeParseException e) {
            return Optional.empty(); // a banner line, a JVM warning, a stack trace
        }
        String rest = line.substring(space);
        if (rest.contains(": " + site + " generation 1: ")) {
            return Optional.of(new Mark(Milestone.FIRST_RECONCILE, at));
        }
        if (STARTED.matcher(rest).find()) {
            return Optional.of(new Mark(Milestone.STARTED, at));
        }
        return Optional.empty();
    }
}

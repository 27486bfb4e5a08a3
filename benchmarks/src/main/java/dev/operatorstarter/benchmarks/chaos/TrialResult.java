package dev.operatorstarter.benchmarks.chaos;

import dev.operatorstarter.benchmarks.Subject;
import java.util.List;
import java.util.OptionalLong;

/**
 * What one trial found for one subject.
 *
 * @param subject the subject
 * @param trial the trial's number in its scenario, from 1
 * @param differences how the cache still differed from a fresh list when the trial gave up
 *     waiting (empty when it converged)
 * @param undeliveredDeletions names deleted on the server whose deletion the handler was never
 *     told (empty when every deletion arrived)
 * @param recoveryMillis from the fault's end to the first event carrying the first change made
 *     after it (or a later one); empty when none arrived within the recovery timeout
 * @param convergeMillis from the churn's stop to the cache equal to a fresh list (keys and
 *     resourceVersions) with every deletion delivered; empty when it did not within the timeout
 * @param lists lists the subject made during the trial (paginated, or watches streaming the
 *     initial state), counted by its proxy, including those a storm refused
 * @param faulted the subject's requests the fault's injections took (lists refused by a storm,
 *     watches cut or made malformed); 0 for faults that act on connections or the server
 * @param tombstones deletes with an unknown final state (inferred from a relist) delivered during the trial
 */
record TrialResult(Subject subject, int trial, List<String> differences, List<String> undeliveredDeletions,
        OptionalLong recoveryMillis, OptionalLong convergeMillis, long lists, long faulted, long tombstones) {

    TrialResult {
        differences = List.copyOf(differences);
        undeliveredDeletions = List.copyOf(undeliveredDeletions);
    }

    /** Converged to the server's state, and every deletion reached the handler. */
    boolean passed() {
        return differences.isEmpty() && undeliveredDeletions.isEmpty();
    }

    /** One line for the log and for an assertion's message. */
    String summary() {
        return subject.name().toLowerCase(java.util.Locale.ROOT) + " trial " + trial + ": "
                + (passed() ? "passed" : "FAILED") + ", first event after the fault "
                + (recoveryMillis.isPresent() ? recoveryMillis.getAsLong() + " ms" : "none") + ", "
                + (convergeMillis.isPresent() ? "converged after " + convergeMillis.getAsLong() + " ms" : "not converged")
                + ", " + lists + " lists, " + faulted + " requests faulted, " + tombstones
                + " tombstones"
                + (differences.isEmpty() ? "" : "; cache differs: " + abbreviate(differences))
                + (undeliveredDeletions.isEmpty() ? "" : "; deletions never delivered: " + abbreviate(undeliveredDeletions));
    }

    private static String abbreviate(List<String> items) {
        return items.size() <= 5 ? String.join(", ", items)
                : String.join(", ", items.subList(0, 5)) + " and " + (items.size() - 5) + " more";
    }
}
